import { useState, type ReactNode } from 'react';
import { Radio, RadioGroup } from 'react-aria-components';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { PlusIcon } from '../../../components/ui/icons.js';
import { MenuButton, MenuItem } from '../../../components/ui/menu.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isPinned } from '../chart-lists.js';
import type { ChartItem } from '../api/chart-api.js';
import { KebabIcon, PinIcon } from './kebab-icon.js';

export interface FilterOption {
  id: string;
  label: string;
}

export interface ItemAction {
  id: string;
  label: string;
  onAction: () => void;
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
  className?: string;
}

export function SectionCard<T extends ChartItem>(props: SectionCardProps<T>) {
  const { title, noun, items, isLoading, isError, emptyText, addLabel = 'Add', onAdd, filter, renderList, className } = props;
  const [pendingDelete, setPendingDelete] = useState<T | null>(null);
  const [deleting, setDeleting] = useState(false);
  const headingId = `chart-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;

  const renderCard = (item: T) => <ItemCard key={item.ident} item={item} {...props} onRequestDelete={setPendingDelete} />;

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
        <RadioGroup
          aria-label={filter.label}
          orientation="horizontal"
          value={filter.value}
          onChange={filter.onChange}
          className="tw-chart-filter"
        >
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

function ItemCard<T extends ChartItem>({
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
  const actions: ItemAction[] = [
    { id: 'edit', label: 'Edit', onAction: () => onEdit(item) },
    { id: 'pin', label: pinned ? 'Unpin' : 'Pin', onAction: () => onTogglePin(item) },
    ...(extraActions?.(item) ?? []),
    { id: 'delete', label: 'Delete', onAction: () => onRequestDelete(item) },
  ];
  return (
    <li
      className={['tw-chart-item', pinned ? 'tw-chart-item--pinned' : ''].filter(Boolean).join(' ')}
      onDoubleClick={(event) => onEdit(item, (event.target as HTMLElement).closest('[data-field]')?.getAttribute('data-field') ?? undefined)}
      aria-label={itemLabel(item)}
      data-pinned={pinned || undefined}
    >
      <div className="tw-chart-item__content">{renderItem(item)}</div>
      <div className="tw-chart-item__side">
        {pinned ? (
          <span className="tw-chart-item__pin" title="Pinned">
            <PinIcon filled />
            <span className="tw-visually-hidden">Pinned</span>
          </span>
        ) : null}
        <MenuButton label={<KebabIcon />} ariaLabel={`Actions for ${noun} ${itemLabel(item)}`} className="tw-chart-item__menu">
          {actions.map((action) => (
            <MenuItem
              key={action.id}
              id={action.id}
              onAction={action.onAction}
              className={action.id === 'delete' ? 'tw-chart-menu-item tw-menu__item--danger' : 'tw-chart-menu-item'}
            >
              {action.label}
            </MenuItem>
          ))}
        </MenuButton>
      </div>
    </li>
  );
}
