import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../../../shared/permissions/permissions.js';
import { CHARGE_ITEM_MAX_CENTS, CHARGE_ITEM_MESSAGES, type ChargeItemInput } from '../../../../../shared/sales/charge-item-input.js';
import { formatCents, type ChargeItem } from '../../../../../shared/sales/sales-schema.js';
import { Button } from '../../../components/ui/button.js';
import { DraftForm } from '../../../components/ui/draft-form.js';
import { Page } from '../../../components/ui/page.js';
import { EditRemoveCell, RemoveDialog } from '../../../components/ui/row-actions.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { SettingsCard } from '../../../components/ui/settings-card.js';
import { SettingsList } from '../../../components/ui/settings-list.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { actorOf } from '../../../lib/permissions.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { deleteChargeItem, fetchChargeItems, saveChargeItem } from '../api/settings-api.js';
import { SettingsNav } from './settings-nav.js';
import '../settings.css';

/** Spec shell §9: searches wait 500 ms after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 500;

interface Draft {
  id: string | null;
  name: string;
  code: string;
  manufacturer: string;
  category: string;
  price: string;
}

const EMPTY: Draft = { id: null, name: '', code: '', manufacturer: '', category: '', price: '' };
const toDraft = (c: ChargeItem): Draft => ({
  id: c.id,
  name: c.name,
  code: c.code,
  manufacturer: c.manufacturer ?? '',
  category: c.category?.name ?? '',
  price: (c.priceInCents / 100).toFixed(2),
});

/** '12', '12.5', '$1,234.50' → cents; null when it is not an amount of the catalog's range. */
export function priceToCents(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(plain)) return null;
  const cents = Math.round(Number(plain) * 100);
  return cents <= CHARGE_ITEM_MAX_CENTS ? cents : null;
}

const keys = { list: (q: string) => ['settings', 'charge-items', q] as const, all: ['settings', 'charge-items'] as const };

/** /new-settings/charge-items: the billing catalog sales notes charge from; admins add, change and remove items. */
export function ChargeItemsPage() {
  const me = useCurrentUser().data;
  const isAdmin = can(actorOf(me), 'practice.settings.change');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const items = useQuery({
    queryKey: keys.list(q),
    queryFn: ({ signal }) => fetchChargeItems(q, signal),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<ChargeItem | null>(null);
  const invalidate = () => void queryClient.invalidateQueries({ queryKey: keys.all });

  const save = useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ChargeItemInput }) => saveChargeItem(id, body),
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: string) => deleteChargeItem(id),
    onSettled: invalidate,
  });

  const edit = (next: Draft | null) => {
    setErrors({});
    setDraft(next);
  };
  const setField = (field: keyof Omit<Draft, 'id'>) => (value: string) => {
    setDraft((d) => (d ? { ...d, [field]: value } : d));
    setErrors((e) => (field in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e));
  };

  const submit = async () => {
    if (!draft) return;
    const cents = priceToCents(draft.price);
    const found: Record<string, string> = {};
    if (!draft.name.trim()) found.name = CHARGE_ITEM_MESSAGES.nameRequired;
    if (cents === null) found.price = CHARGE_ITEM_MESSAGES.priceInvalid;
    if (Object.keys(found).length) return setErrors(found);
    try {
      await save.mutateAsync({
        id: draft.id,
        body: {
          name: draft.name.trim(),
          code: draft.code.trim() || null,
          manufacturer: draft.manufacturer.trim() || null,
          category: draft.category.trim() || null,
          priceInCents: cents!,
        },
      });
      showToast(draft.id ? 'Charge item saved' : 'Charge item added', { tone: 'success' });
      edit(null);
    } catch (error) {
      const fieldErrors = Object.fromEntries(
        Object.entries(isApiError(error) ? error.fieldErrors : {}).map(([k, v]) => [k === 'priceInCents' ? 'price' : k, v]),
      );
      setErrors(fieldErrors);
      // The typed values stay in the form; anything not about a field is said in a toast.
      if (Object.keys(fieldErrors).length === 0) showToast(error instanceof Error ? error.message : 'The charge item could not be saved', { tone: 'error' });
    }
  };

  return (
    <Page title="Settings" nav={<SettingsNav />}>
      <SettingsCard
        title="Charge items"
        action={
          isAdmin && !draft ? (
            <Button size="sm" onPress={() => edit({ ...EMPTY })}>
              Add charge item
            </Button>
          ) : null
        }
      >
        <p className="tw-settings__muted tw-settings__hint">
          The services and products a sales note can charge. A signed sales note keeps the name and price it charged.
        </p>
        {draft ? (
          <DraftForm
            errors={errors}
            className="tw-settings__form tw-settings__grid"
            actionsClassName="tw-settings__actions tw-settings__span"
            aria-label={draft.id ? `Edit ${draft.name}` : 'New charge item'}
            isPending={save.isPending}
            onSave={() => void submit()}
            onCancel={() => edit(null)}
          >
            <TextField label="Name" name="name" isRequired value={draft.name} onChange={setField('name')} />
            <TextField label="Price" name="price" isRequired description="In dollars, e.g. 45.00" value={draft.price} onChange={setField('price')} />
            <TextField label="Code" name="code" value={draft.code} onChange={setField('code')} />
            <TextField label="Manufacturer" name="manufacturer" value={draft.manufacturer} onChange={setField('manufacturer')} />
            <TextField label="Category" name="category" value={draft.category} onChange={setField('category')} />
          </DraftForm>
        ) : null}
        <SearchField label="Search charge items" value={search} onChange={setSearch} />
        <SettingsList
          query={items}
          items={items.data}
          emptyText={q ? 'No charge item matches the search.' : 'No charge items yet.'}
          label="Charge items"
          columns={['Name', 'Code', 'Category', 'Price']}
          hasActions={isAdmin}
          renderRow={(item) => (
            <tr key={item.id}>
              <td>
                {item.name}
                {item.manufacturer ? <span className="tw-settings__muted"> · {item.manufacturer}</span> : null}
              </td>
              <td className="tw-settings__mono">{item.code}</td>
              <td>{item.category?.name ?? ''}</td>
              <td>{formatCents(item.priceInCents)}</td>
              {isAdmin ? <EditRemoveCell name={item.name} onEdit={() => edit(toDraft(item))} onRemove={() => setRemoving(item)} /> : null}
            </tr>
          )}
        />
      </SettingsCard>
      <RemoveDialog
        item={removing}
        onClose={() => setRemoving(null)}
        title="Remove this charge item?"
        isPending={remove.isPending}
        onConfirm={(item) =>
          remove.mutate(item.id, {
            onSuccess: () => showToast('Charge item removed', { tone: 'success' }),
            onError: (error) => showToast(error.message, { tone: 'error' }),
            onSettled: () => setRemoving(null),
          })
        }
      >
        {removing?.name} will no longer be offered in sales notes. Signed sales notes keep what they charged.
      </RemoveDialog>
    </Page>
  );
}
