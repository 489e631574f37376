import { useState } from 'react';
import { INVENTORY_SETTINGS_DEFAULTS, type InventorySettings } from '../../../../../shared/sales/sales-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';
import { useCan } from '../../../lib/permissions.js';
import { showToast, withServerText } from '../../../lib/toasts.js';
import { useInventorySettingsValues, useSaveInventorySettings } from '../api/inventory-api.js';

const FIELDS: [keyof InventorySettings, string, string][] = [
  ['defaultMarkupPercentage', 'Default markup (%)', 'Added to the cost per unit for a new item’s final price.'],
  ['defaultRestockPercentage', 'Default restock level (%)', 'A new item needs restock at or below this share of its first stock.'],
  ['defaultSalesTaxPercentage', 'Default sales tax (%)', 'Added to sales notes.'],
];

/** Spec shell §3, §7.10, §9: the practice's inventory defaults (10, 20, 0 until an admin changes them). */
export function InventorySettingsCard() {
  const settings = useInventorySettingsValues();
  const save = useSaveInventorySettings();
  const isAdmin = useCan('practice.settings.change');
  const current = settings.data ?? INVENTORY_SETTINGS_DEFAULTS;
  const [values, setValues] = useState<Record<string, string> | null>(null);
  const shown = values ?? Object.fromEntries(FIELDS.map(([k]) => [k, String(current[k])]));
  const submit = async () => {
    const body = Object.fromEntries(FIELDS.map(([k]) => [k, Number(shown[k])]));
    try {
      await save.mutateAsync(body);
      setValues(null);
      showToast('Inventory settings saved', { tone: 'success' });
    } catch (error) {
      showToast(withServerText('There was an error saving the inventory settings.', error), { tone: 'error' });
    }
  };
  return (
    <div className="tw-card tw-inventory__settings tw-inventory__card">
      <h2 className="tw-card__title">Inventory settings</h2>
      <Form
        className="tw-inventory__settings-form tw-inventory__body"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {FIELDS.map(([key, label, description]) => (
          <TextField
            key={key}
            label={label}
            description={description}

            isReadOnly={!isAdmin}
            value={shown[key] ?? ''}
            onChange={(v) => setValues({ ...shown, [key]: v })}
          />
        ))}
        {isAdmin ? (
          <div className="tw-inventory__actions">
            <Button type="submit" isPending={save.isPending}>
              Save settings
            </Button>
          </div>
        ) : null}
      </Form>
    </div>
  );
}
