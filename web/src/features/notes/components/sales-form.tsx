import { useId, useState } from 'react';
import { formatCents, MAX_SALE_QUANTITY, saleTotals, type SaleLine } from '../../../../../shared/sales/sales-schema.js';
import { Button } from '../../../components/ui/button.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { useChargeItems, useInventory, useInventorySettings } from '../api/sales-api.js';
import type { SafetyOverride } from '../../../../../shared/chart/drug-safety.js';
import { Form } from '../../../components/ui/form.js';
import { SafetyOverrideSummary, SafetyWarnings, useDrugSafety } from './safety-warnings.js';

/** Spec shell §9: searches wait 500 ms after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 500;

const lineOf = (l: Omit<SaleLine, 'lineTotalInCents'>): SaleLine => ({ ...l, lineTotalInCents: l.unitPriceInCents * l.quantity });

/**
 * A sales note: charge items found by search and inventory items at their final price, each with a
 * quantity; the totals use the inventory settings' sales tax. The server prices every line again
 * from the catalog when the sale is saved or signed; after signing it is read-only.
 */
export function SalesForm({
  items,
  editable,
  error,
  onChange,
  patientId,
  override,
  overrideError,
  onOverrideChange,
}: {
  items: SaleLine[];
  editable: boolean;
  error?: string;
  onChange: (items: SaleLine[]) => void;
  patientId?: string | null;
  override?: { reason?: string; warnings?: unknown[] } | undefined;
  overrideError?: string;
  onOverrideChange?: (reason: string) => void;
}) {
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const charges = useChargeItems(q);
  const inventory = useInventory();
  const settings = useInventorySettings();
  const [inventoryId, setInventoryId] = useState<string | null>(null);
  const headingId = useId();
  const taxPercentage = settings.data?.defaultSalesTaxPercentage ?? 0;
  const totals = saleTotals(items, taxPercentage);
  // The inventory items sold are drugs: checked against the patient's allergies and medications.
  const safety = useDrugSafety(editable ? patientId : null, editable ? items.filter((l) => l.kind === 'inventory').map((l) => l.refId) : []);

  const add = (line: SaleLine) => {
    const existing = items.findIndex((l) => l.kind === line.kind && l.refId === line.refId);
    if (existing === -1) return onChange([...items, line]);
    onChange(items.map((l, i) => (i === existing ? lineOf({ ...l, quantity: Math.min(MAX_SALE_QUANTITY, l.quantity + 1) }) : l)));
  };
  const setQuantity = (index: number, quantity: number) => onChange(items.map((l, i) => (i === index ? lineOf({ ...l, quantity }) : l)));
  const sellable = (inventory.data ?? []).filter((i) => !i.isHidden && i.quantityInStock > 0);
  const chosen = sellable.find((i) => i.inventoryId === inventoryId);

  return (
    <div className="tw-sales">
      {editable ? (
        <div className="tw-sales__pickers">
          <div className="tw-sales__picker">
            <SearchField label="Search charge items" placeholder="Search charge items by name or code" value={query} onChange={setQuery} />
            {charges.isPending ? <Spinner label="Searching charge items" /> : null}
            {charges.data?.length ? (
              <ul className="tw-sales__results" aria-label="Charge items">
                {charges.data.slice(0, 6).map((c) => (
                  <li key={c.id}>
                    <Button
                      size="sm"
                      variant="quiet"
                      onPress={() => add(lineOf({ kind: 'charge', refId: c.id, quantity: 1, name: c.name, code: c.code, unitPriceInCents: c.priceInCents }))}
                    >
                      Add {c.name} ({c.code}) {formatCents(c.priceInCents)}
                    </Button>
                  </li>
                ))}
              </ul>
            ) : charges.isSuccess ? (
              <p className="tw-sales__muted">No charge items match.</p>
            ) : null}
          </div>
          <div className="tw-sales__picker tw-sales__picker--row">
            <Select
              label="Inventory item"
              options={sellable.map((i) => ({
                id: i.inventoryId,
                label: `${[i.brandName || i.genericName, i.strength, i.form].filter(Boolean).join(' ')} · ${formatCents(i.finalPrice)} · ${i.quantityInStock} in stock`,
              }))}
              value={inventoryId}
              onChange={setInventoryId}
            />
            <Button
              size="sm"
              isDisabled={!chosen}
              onPress={() =>
                chosen &&
                add(
                  lineOf({
                    kind: 'inventory',
                    refId: chosen.inventoryId,
                    quantity: 1,
                    name: [chosen.brandName || chosen.genericName, chosen.strength].filter(Boolean).join(' '),
                    code: chosen.ndcNumber ?? null,
                    unitPriceInCents: chosen.finalPrice,
                  }),
                )
              }
            >
              Add item
            </Button>
          </div>
        </div>
      ) : null}

      <h3 id={headingId} className="tw-sales__heading">
        Items sold
      </h3>
      {items.length === 0 ? (
        <p className="tw-sales__muted">No items yet.</p>
      ) : (
        <table className="tw-table tw-sales__table" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Quantity</th>
              <th scope="col">Price</th>
              <th scope="col">Total</th>
              {editable ? (
                <th scope="col">
                  <span className="tw-visually-hidden">Remove</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {items.map((line, i) => (
              <tr key={`${line.kind}-${line.refId}`}>
                <td>
                  {line.name}
                  {line.code ? <span className="tw-sales__muted"> {line.code}</span> : null}
                </td>
                <td>
                  {editable ? (
                    <input
                      className="tw-field__input tw-sales__qty"
                      type="number"
                      min={1}
                      max={MAX_SALE_QUANTITY}
                      aria-label={`Quantity of ${line.name}`}
                      value={line.quantity}
                      onChange={(e) => {
                        const n = Math.trunc(Number(e.target.value));
                        if (Number.isFinite(n) && n >= 1 && n <= MAX_SALE_QUANTITY) setQuantity(i, n);
                      }}
                    />
                  ) : (
                    line.quantity
                  )}
                </td>
                <td>{formatCents(line.unitPriceInCents)}</td>
                <td>{formatCents(line.lineTotalInCents)}</td>
                {editable ? (
                  <td>
                    <Button size="sm" variant="quiet" aria-label={`Remove ${line.name}`} onPress={() => onChange(items.filter((_, j) => j !== i))}>
                      Remove
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl className="tw-sales__totals" aria-label="Sale totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{formatCents(totals.subtotalInCents)}</dd>
        </div>
        <div>
          <dt>Sales tax ({taxPercentage}%)</dt>
          <dd>{formatCents(totals.taxInCents)}</dd>
        </div>
        <div className="tw-sales__total">
          <dt>Total</dt>
          <dd>{formatCents(totals.totalInCents)}</dd>
        </div>
      </dl>
      {editable ? (
        <Form validationErrors={overrideError ? { safetyOverride: overrideError } : {}} onSubmit={(e) => e.preventDefault()}>
          <SafetyWarnings check={safety} reason={override?.reason ?? ''} onReasonChange={(reason) => onOverrideChange?.(reason)} />
        </Form>
      ) : (
        <SafetyOverrideSummary override={override as SafetyOverride | undefined} />
      )}
      {error ? (
        <p className="tw-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
