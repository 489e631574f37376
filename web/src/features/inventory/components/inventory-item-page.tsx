import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { INVENTORY_MESSAGES, InventoryCreateBody, needsRestock, priceWithMarkup } from '../../../../../shared/inventory/inventory-schema.js';
import { formatCents, type InventoryItem } from '../../../../../shared/sales/sales-schema.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { showToast, withServerText } from '../../../lib/toasts.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import { useDrugSearch, useInventoryItem, useInventorySettingsValues, useRestocks, useSaveInventoryItem } from '../api/inventory-api.js';
import '../inventory.css';

/** Spec chart-data §9: the medication search waits 500 ms. */
const DRUG_SEARCH_DEBOUNCE_MS = 500;

const dollars = (cents: number | undefined) => (cents === undefined ? '' : (cents / 100).toFixed(2));
/** '$1.50' or '1.5' → 150 cents; NaN when it is not an amount. */
const toCents = (text: string): number => {
  const cleaned = text.replace(/[$,\s]/g, '');
  return /^\d+(\.\d{0,2})?$/.test(cleaned) ? Math.round(Number(cleaned) * 100) : Number.NaN;
};

/** /inventory/{inventoryId} (and /inventory/new): one item's fields, its restock and its stock history. */
export function InventoryItemPage() {
  const { inventoryId = 'new' } = useParams();
  const id = inventoryId === 'new' ? null : inventoryId;
  const item = useInventoryItem(id);
  return (
    <Page title="Medications" actions={<Link href={paths.inventory()}>All medications</Link>}>
      {id && item.isPending ? (
        <Spinner label="Loading the item" />
      ) : id && item.isError ? (
        <div className="tw-card tw-inventory__body">
          <p role="alert">{isApiError(item.error, 404) ? INVENTORY_MESSAGES.notFound : item.error.message}</p>
        </div>
      ) : (
        <>
          <ItemForm key={`${id ?? 'new'}-${item.data?.updatedAt ?? ''}`} item={item.data ?? null} />
          {item.data ? <RestockHistory inventoryId={item.data.inventoryId} /> : null}
        </>
      )}
    </Page>
  );
}

function ItemForm({ item }: { item: InventoryItem | null }) {
  const navigate = useNavigate();
  const save = useSaveInventoryItem();
  const settings = useInventorySettingsValues();
  const [values, setValues] = useState({
    genericName: item?.genericName ?? '',
    brandName: item?.brandName ?? '',
    strength: item?.strength ?? '',
    form: item?.form ?? '',
    ndcNumber: item?.ndcNumber ?? '',
    expirationDate: item?.expirationDate ?? '',
    quantityInStock: item ? String(item.quantityInStock) : '',
    costPerUnit: dollars(item?.costPerUnit),
    finalPrice: dollars(item?.finalPrice),
    restockLevel: item?.restockLevel != null ? String(item.restockLevel) : '',
    isHidden: item?.isHidden ?? false,
    reasonForEditing: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [drugQuery, setDrugQuery] = useState('');
  const drugs = useDrugSearch(useDebouncedValue(drugQuery.trim(), DRUG_SEARCH_DEBOUNCE_MS));
  const set = (field: keyof typeof values, value: string | boolean) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };
  const stockChanged = item !== null && values.quantityInStock !== String(item.quantityInStock);
  const markup = settings.data?.defaultMarkupPercentage ?? 10;
  const cost = toCents(values.costPerUnit);

  const submit = async () => {
    const body = {
      genericName: values.genericName,
      brandName: values.brandName || null,
      strength: values.strength || null,
      form: values.form || null,
      ndcNumber: values.ndcNumber || null,
      expirationDate: values.expirationDate || null,
      isHidden: values.isHidden,
      quantityInStock: values.quantityInStock === '' ? Number.NaN : Number(values.quantityInStock),
      costPerUnit: cost,
      ...(values.finalPrice ? { finalPrice: toCents(values.finalPrice) } : {}),
      ...(values.restockLevel ? { restockLevel: Number(values.restockLevel) } : {}),
    };
    const parsed = InventoryCreateBody.safeParse(body);
    const fieldErrors: Record<string, string> = parsed.success ? {} : zodFieldErrors(parsed.error);
    if (stockChanged && !values.reasonForEditing.trim()) fieldErrors.reasonForEditing = INVENTORY_MESSAGES.reasonRequired;
    if (Object.keys(fieldErrors).length) return setErrors(fieldErrors);
    try {
      const saved = await save.mutateAsync(
        item
          ? {
              ...parsed.data!,
              inventoryId: item.inventoryId,
              ...(stockChanged
                ? { expectedQuantityInStock: item.quantityInStock, reasonForEditing: values.reasonForEditing.trim() }
                : { quantityInStock: undefined }),
            }
          : parsed.data!,
      );
      showToast(INVENTORY_MESSAGES.saved, { tone: 'success' });
      if (!item) void navigate(paths.inventoryItem(saved.inventoryId), { replace: true });
    } catch (error) {
      if (isApiError(error)) setErrors(error.fieldErrors);
      showToast(withServerText(INVENTORY_MESSAGES.saveError, error), { tone: 'error' });
    }
  };

  return (
    <div className="tw-card tw-inventory__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">{item ? [item.genericName, item.strength].filter(Boolean).join(' ') : 'New inventory item'}</h2>
        {item && needsRestock(item) ? <Badge tone="warning">{INVENTORY_MESSAGES.needsRestock}</Badge> : null}
      </div>
      <div className="tw-inventory__body">
        <div className="tw-inventory__drug-search">
          <SearchField
            label="Search drugs to fill in the item"
            placeholder="Search drugs to fill in the item (more than 3 characters)"
            value={drugQuery}
            onChange={setDrugQuery}
          />
          {drugs.data?.length && drugQuery.trim().length > 3 ? (
            <ul className="tw-inventory__drugs" aria-label="Drug search results">
              {drugs.data.map((d) => (
                <li key={d.ident}>
                  <Button
                    size="sm"
                    variant="quiet"
                    onPress={() => {
                      setValues((v) => ({
                        ...v,
                        genericName: d.genericName || d.productName,
                        brandName: d.productName !== d.genericName ? d.productName : v.brandName,
                        strength: [d.strength, d.strengthUOM].filter(Boolean).join(' '),
                        form: d.dosageForm.toLowerCase(),
                        ndcNumber: d.ndc ?? v.ndcNumber,
                      }));
                      setDrugQuery('');
                    }}
                  >
                    {d.productName} {d.strength} {d.strengthUOM} {d.dosageForm}
                    {d.ndc ? ` · NDC ${d.ndc}` : ''}
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <Form
          className="tw-inventory__form"
          validationErrors={Object.fromEntries(Object.entries(errors).filter(([, m]) => m))}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <TextField label="Generic name" name="genericName" isRequired value={values.genericName} onChange={(v) => set('genericName', v)} />
          <TextField label="Brand name" name="brandName" value={values.brandName} onChange={(v) => set('brandName', v)} />
          <TextField label="Strength" name="strength" value={values.strength} onChange={(v) => set('strength', v)} />
          <TextField label="Form" name="form" value={values.form} onChange={(v) => set('form', v)} />
          <TextField
            label="NDC"
            name="ndcNumber"
            placeholder="0000-0000-00"
            description="Required to prescribe the item."
            value={values.ndcNumber}
            onChange={(v) => set('ndcNumber', v)}
          />
          <TextField
            label="Expiration (mm/yyyy)"
            name="expirationDate"
            placeholder="mm/yyyy"
            value={values.expirationDate}
            onChange={(v) => set('expirationDate', v)}
          />
          <TextField
            label="Quantity in stock"
            name="quantityInStock"
            isRequired
            inputMode="numeric"
            value={values.quantityInStock}
            onChange={(v) => set('quantityInStock', v)}
          />
          <TextField
            label="Restock level"
            name="restockLevel"
            inputMode="numeric"
            description={item ? 'At or below this quantity the item needs restock.' : 'Left empty: the default restock percentage of the first stock.'}
            value={values.restockLevel}
            onChange={(v) => set('restockLevel', v)}
          />
          <TextField label="Cost per unit ($)" name="costPerUnit" isRequired value={values.costPerUnit} onChange={(v) => set('costPerUnit', v)} />
          <TextField
            label="Final price ($)"
            name="finalPrice"

            description={
              Number.isFinite(cost)
                ? `Left empty: ${formatCents(priceWithMarkup(cost, markup))} (cost plus ${markup}% markup).`
                : `Left empty: cost plus ${markup}% markup.`
            }
            value={values.finalPrice}
            onChange={(v) => set('finalPrice', v)}
          />
          {stockChanged ? (
            <TextField
              label="Reason for editing"
              name="reasonForEditing"
              isRequired
              className="tw-inventory__span"
              description={`The stock changes from ${item!.quantityInStock} to ${values.quantityInStock}; the reason is kept in the item's history.`}
              value={values.reasonForEditing}
              onChange={(v) => set('reasonForEditing', v)}
            />
          ) : null}
          <div className="tw-inventory__span">
            <Checkbox label="Hidden (not offered on prescriptions or sales)" isSelected={values.isHidden} onChange={(v) => set('isHidden', v)} />
          </div>
          <div className="tw-inventory__actions tw-inventory__span">
            <Button variant="primary" type="submit" isPending={save.isPending}>
              Save
            </Button>
          </div>
        </Form>
      </div>
    </div>
  );
}

const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' });

function RestockHistory({ inventoryId }: { inventoryId: string }) {
  const restocks = useRestocks(inventoryId);
  return (
    <div className="tw-card tw-inventory__card">
      <h2 className="tw-card__title">Stock history</h2>
      {restocks.isPending ? (
        <Spinner label="Loading the stock history" />
      ) : restocks.isError ? (
        <p role="alert">{restocks.error.message}</p>
      ) : restocks.data.length === 0 ? (
        <p className="tw-empty">No stock changes yet.</p>
      ) : (
        <div className="tw-table-wrap">
          <table className="tw-table" aria-label="Stock history">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Change</th>
                <th scope="col">Stock after</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {[...restocks.data].reverse().map((r) => (
                <tr key={r.restockId}>
                  <td>{formatWhen(r.at)}</td>
                  <td>{r.userName}</td>
                  <td>{r.change > 0 ? `+${r.change}` : r.change}</td>
                  <td>{r.quantityAfter ?? '—'}</td>
                  <td>{r.reasonForEditing}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
