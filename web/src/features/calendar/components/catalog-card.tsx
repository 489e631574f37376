import { useState, type ReactNode } from 'react';
import { ActiveBadge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { DraftForm } from '../../../components/ui/draft-form.js';
import { EditRemoveCell, RemoveDialog } from '../../../components/ui/row-actions.js';
import { SettingsCard } from '../../../components/ui/settings-card.js';
import { SettingsList } from '../../../components/ui/settings-list.js';
import { Switch } from '../../../components/ui/switch.js';
import { TextField } from '../../../components/ui/text-field.js';
import { useSettingsChange } from './use-settings-change.js';

export interface CatalogItem {
  ident: string;
  name: string;
  status: 'active' | 'inactive';
}

export interface CatalogDraft {
  /** Null for an item not saved yet. */
  ident: string | null;
  name: string;
  active: boolean;
}

/** An entry's name as it reads mid-sentence, one and many, e.g. 'booking location', 'booking locations'. */
export interface CatalogNouns {
  one: string;
  many: string;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Every text of a card is said the same way for each list, with that list's nouns. */
export function catalogTexts({ one, many }: CatalogNouns) {
  return {
    title: capitalized(many),
    add: `Add ${one}`,
    formLabel: capitalized(one),
    empty: `No ${many} yet.`,
    saved: `${capitalized(one)} saved`,
    removed: `${capitalized(one)} removed`,
    removeTitle: `Remove this ${one}?`,
  };
}

interface CatalogCardProps<T extends CatalogItem, D extends CatalogDraft> {
  isAdmin: boolean;
  list: { isPending: boolean; isError: boolean; error: Error | null; data: T[] | undefined };
  /** The collection's API path; an item's own path adds its ident. */
  path: string;
  nouns: CatalogNouns;
  newDraft: () => D;
  toDraft: (item: T) => D;
  /** The draft's own fields as the API takes them; name and status are added here. */
  toBody: (draft: D) => Record<string, unknown>;
  /** The fields between Name and Active. */
  renderFields: (draft: D, setDraft: (next: D) => void) => ReactNode;
  /** Column headings after Name, before Status. */
  columns: readonly string[];
  renderName: (item: T) => ReactNode;
  renderCells: (item: T) => ReactNode;
  /** What removing the item changes, and what stays. */
  removeText: (item: T) => ReactNode;
}

/** A practice list the calendar books from (appointment types, booking locations): admins add, change, deactivate and remove entries. */
export function CatalogCard<T extends CatalogItem, D extends CatalogDraft>({
  isAdmin,
  list,
  path,
  nouns,
  newDraft,
  toDraft,
  toBody,
  renderFields,
  columns,
  renderName,
  renderCells,
  removeText,
}: CatalogCardProps<T, D>) {
  const texts = catalogTexts(nouns);
  const { run, errors, setErrors, isPending } = useSettingsChange();
  const [draft, setDraft] = useState<D | null>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const edit = (next: D) => (setErrors({}), setDraft(next));
  const save = async () => {
    if (!draft) return;
    const body = { name: draft.name, ...toBody(draft), status: draft.active ? 'active' : 'inactive' };
    const ok = await run(draft.ident ? { method: 'PUT', path: `${path}/${draft.ident}`, body } : { method: 'POST', path, body }, texts.saved);
    if (ok) setDraft(null);
  };
  const addButton =
    isAdmin && !draft ? (
      <Button size="sm" onPress={() => edit(newDraft())}>
        {texts.add}
      </Button>
    ) : null;
  return (
    <SettingsCard title={texts.title} action={addButton}>
      {draft ? (
        <DraftForm errors={errors} aria-label={texts.formLabel} isPending={isPending} onSave={() => void save()} onCancel={() => setDraft(null)}>
          <TextField label="Name" name="name" isRequired value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
          {renderFields(draft, setDraft)}
          <Switch label="Active" isSelected={draft.active} onChange={(active) => setDraft({ ...draft, active })} />
        </DraftForm>
      ) : null}
      <SettingsList
        query={list}
        items={list.data}
        emptyText={texts.empty}
        label={texts.title}
        columns={['Name', ...columns, 'Status']}
        hasActions={isAdmin}
        renderRow={(item) => (
          <tr key={item.ident}>
            <td>{renderName(item)}</td>
            {renderCells(item)}
            <td>
              <ActiveBadge active={item.status === 'active'} />
            </td>
            {isAdmin ? <EditRemoveCell name={item.name} onEdit={() => edit(toDraft(item))} onRemove={() => setRemoving(item)} /> : null}
          </tr>
        )}
      />
      <RemoveDialog
        item={removing}
        onClose={() => setRemoving(null)}
        title={texts.removeTitle}
        isPending={isPending}
        onConfirm={(item) => void run({ method: 'DELETE', path: `${path}/${item.ident}` }, texts.removed).then(() => setRemoving(null))}
      >
        {removing ? removeText(removing) : null}
      </RemoveDialog>
    </SettingsCard>
  );
}
