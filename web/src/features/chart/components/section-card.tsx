import { useState, type ReactNode } from 'react';
import { Radio, RadioGroup } from 'react-aria-components';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { PlusIcon } from '../../../components/ui/icons.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isPinned } from '../chart-lists.js';
import type { ChartItem } from '../api/chart-api.js';
import { ItemCard, type ItemAction } from './chart-card.js';

export type { ItemAction };

export interface FilterOption {
  id: string;
  label: string;
}

export interface SectionCardProps<T extends ChartItem> {
  title: string;
  /** The item noun in menus and the delete question ("allergy"). */
  noun: string;
  items: T[];
  isLoading: boolean;
  isError?: boolean;
  emptyText: string;
  addLabel?: string;
  onAdd: () => void;
  /** `field` is the body field under the double-click, for the form to focus. */
  onEdit: (item: T, field?: string) => void;
  onTogglePin: (item: T) => void;
  onDelete: (item: T) => Promise<unknown>;
  renderItem: (item: T) => ReactNode;
  itemLabel: (item: T) => string;
  extraActions?: (item: T) => ItemAction[];
  filter?: { label: string; options: readonly FilterOption[]; value: string; onChange: (value: string) => void };
  /** Replaces the flat list (vaccines are shown in groups). */
  renderList?: (items: T[], renderCard: (item: T) => ReactNode) => ReactNode;
  /** Shown below the list, whatever the list holds. */
  footer?: ReactNode;
  className?: string;
}

export function SectionCard<T extends ChartItem>(props: SectionCardProps<T>) {
  const { title, noun, items, isLoading, isError, emptyText, addLabel = 'Add', onAdd, filter, renderList, footer, className } = props;
  const [pendingDelete, setPendingDelete] = useState<T | null>(null);
  const [deleting, setDeleting] = useState(false);
  const headingId = `chart-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;

  const renderCard = (item: T) => <SectionItemCard key={item.ident} item={item} {...props} onRequestDelete={setPendingDelete} />;

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    setDeleting(true);
    try {
      await props.onDelete(pendingDelete);
    } finally {
      setDeleting(false);
      setPendingDelete(null);
    }
  };

  return (
    <section className={['tw-card', 'tw-chart-section', className].filter(Boolean).join(' ')} aria-labelledby={headingId}>
      <header className="tw-chart-section__header">
        <h2 id={headingId} className="tw-chart-section__title">
          {title}
        </h2>
        {items.length ? <span className="tw-chart-section__count">{items.length}</span> : null}
        <Button size="sm" variant="quiet" className="tw-chart-section__add" onPress={onAdd} aria-label={addLabel === 'Add' ? `Add ${noun}` : undefined}>
          <PlusIcon /> {addLabel}
        </Button>
      </header>
      {filter ? (
        <RadioGroup aria-label={filter.label} orientation="horizontal" value={filter.value} onChange={filter.onChange} className="tw-chart-filter">
          {filter.options.map((option) => (
            <Radio key={option.id} value={option.id} className="tw-chart-filter__option">
              {option.label}
            </Radio>
          ))}
        </RadioGroup>
      ) : null}
      <div className="tw-chart-section__body">
        {isLoading ? (
          <Spinner label={`Loading ${title}`} />
        ) : isError ? (
          <p className="tw-chart-section__empty">{title} could not be loaded.</p>
        ) : items.length === 0 ? (
          <p className="tw-chart-section__empty">{emptyText}</p>
        ) : renderList ? (
          renderList(items, renderCard)
        ) : (
          <ul className="tw-chart-list">{items.map(renderCard)}</ul>
        )}
        {footer}
      </div>
      <ConfirmDialog
        isOpen={pendingDelete !== null}
        onOpenChange={(open) => {
          if (!open) setPendingDelete(null);
        }}
        title={`Delete ${noun}?`}
        confirmLabel="Delete"
        tone="danger"
        isPending={deleting}
        onConfirm={() => void confirmDelete()}
      >
        {pendingDelete ? `"${props.itemLabel(pendingDelete)}" will be removed from the chart.` : null}
      </ConfirmDialog>
    </section>
  );
}

function SectionItemCard<T extends ChartItem>({
  item,
  noun,
  onEdit,
  onTogglePin,
  renderItem,
  itemLabel,
  extraActions,
  onRequestDelete,
}: SectionCardProps<T> & { item: T; onRequestDelete: (item: T) => void }) {
  const pinned = isPinned(item);
  return (
    <ItemCard
      label={itemLabel(item)}
      menuLabel={`Actions for ${noun} ${itemLabel(item)}`}
      pinned={pinned}
      onEdit={(field) => onEdit(item, field)}
      actions={[
        { id: 'edit', label: 'Edit', onAction: () => onEdit(item) },
        { id: 'pin', label: pinned ? 'Unpin' : 'Pin', onAction: () => onTogglePin(item) },
        ...(extraActions?.(item) ?? []),
        { id: 'delete', label: 'Delete', onAction: () => onRequestDelete(item) },
      ]}
    >
      {renderItem(item)}
    </ItemCard>
  );
}
