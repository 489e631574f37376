import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { needsRestock } from '../../../../../shared/inventory/inventory-schema.js';
import { formatCents } from '../../../../../shared/sales/sales-schema.js';
import { Badge } from '../../../components/ui/badge.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { ClickableRow } from '../../../components/ui/clickable-row.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { SearchField } from '../../../components/ui/search-field.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { paths } from '../../../lib/paths.js';
import { useInventoryList } from '../api/inventory-api.js';
import { InventorySettingsCard } from './inventory-settings-card.js';
import '../inventory.css';

/** /inventory/list: the practice's medications on the shelf; an item at or below its restock level needs restock. */
export function InventoryListPage() {
  const navigate = useNavigate();
  const items = useInventoryList();
  const [query, setQuery] = useState('');
  const [showHidden, setShowHidden] = useState(false);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (items.data ?? []).filter((i) => {
    if (i.isHidden && !showHidden) return false;
    const hay = [i.genericName, i.brandName, i.strength, i.form, i.ndcNumber].filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  const low = (items.data ?? []).filter((i) => !i.isHidden && needsRestock(i)).length;
  return (
    <Page
      title="Medications"
      subtitle={items.data ? `${items.data.length} items in the inventory${low ? `, ${low} need restock` : ''}` : undefined}
      actions={
        <Link variant="primary" href={paths.inventoryItem('new')}>
          Add item
        </Link>
      }
    >
      <div className="tw-card tw-inventory__card">
        <div className="tw-inventory__filters tw-inventory__body">
          <SearchField label="Search the inventory" placeholder="Name, strength, form or NDC" value={query} onChange={setQuery} />
          <Checkbox label="Show hidden items" isSelected={showHidden} onChange={setShowHidden} />
        </div>
        <QueryTable
          query={items}
          items={shown}
          loadingLabel="Loading the inventory"
          emptyText={items.data?.length ? 'No items match.' : 'No items yet. Add the medications you dispense.'}
          label="Inventory"
          columns={['Medication', 'Strength', 'Form', 'NDC', 'Expires', 'In stock', 'Cost per unit', 'Final price']}
          renderRow={(i) => (
            <ClickableRow key={i.inventoryId} onOpen={() => void navigate(paths.inventoryItem(i.inventoryId))}>
              <td>
                <Link href={paths.inventoryItem(i.inventoryId)}>{i.genericName}</Link>
                {i.brandName ? <span className="tw-inventory__muted"> ({i.brandName})</span> : null}
                {i.isHidden ? (
                  <>
                    {' '}
                    <Badge tone="neutral">Hidden</Badge>
                  </>
                ) : null}
              </td>
              <td>{i.strength ?? '—'}</td>
              <td>{i.form ?? '—'}</td>
              <td className="tw-inventory__mono">{i.ndcNumber ?? '—'}</td>
              <td>{i.expirationDate ?? '—'}</td>
              <td>
                {i.quantityInStock}
                {needsRestock(i) ? (
                  <>
                    {' '}
                    <Badge tone="warning">Needs restock</Badge>
                  </>
                ) : null}
              </td>
              <td>{formatCents(i.costPerUnit)}</td>
              <td>{formatCents(i.finalPrice)}</td>
            </ClickableRow>
          )}
        />
      </div>
      <InventorySettingsCard />
    </Page>
  );
}
