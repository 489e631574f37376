import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { chartKeys, useDeleteItem, useSaveItem, useSectionList, type ChartItem, type SectionKey } from '../api/chart-api.js';
import { isPinned, pinnedWire } from '../chart-lists.js';
import { ItemForm, type SetField } from './item-form.js';
import { SectionCard, type FilterOption, type ItemAction } from './section-card.js';

export interface SectionFilter<T> {
  label: string;
  options: readonly FilterOption[];
  initial: string;
  apply: (items: T[], value: string) => T[];
  emptyText: (value: string) => string;
}

export interface SectionDefinition<T extends ChartItem, V> {
  section: SectionKey;
  title: string;
  /** Lower-case noun for menus and questions ("allergy"). */
  noun: string;
  /** Title-case noun for form titles ("Allergy" → "Add Allergy", "Edit Allergy"). */
  formNoun: string;
  emptyText: string;
  addLabel?: string;
  guardKey: string;
  schema: z.ZodType;
  toValues: (item?: T) => V;
  toBody: (values: V) => Record<string, unknown>;
  renderFields: (values: V, set: SetField<V>) => ReactNode;
  renderItem: (item: T) => ReactNode;
  itemLabel: (item: T) => string;
  filter?: SectionFilter<T>;
  extraActions?: (item: T, update: (body: Record<string, unknown>) => void) => ItemAction[];
  saveOnDismiss?: boolean;
  /** Replaces the plain create/update call (general items saved into a group). */
  saveItem?: (args: { patientId: string; item?: T; values: V; body: Record<string, unknown> }) => Promise<unknown>;
  renderList?: (items: T[], renderCard: (item: T) => ReactNode) => ReactNode;
  failure?: 'log' | 'toast' | 'inline';
  className?: string;
}

/** One health-summary section: the card list, its filter, and the add/edit form. */
export function SectionPanel<T extends ChartItem, V>({ def, patientId }: { def: SectionDefinition<T, V>; patientId: string }) {
  const queryClient = useQueryClient();
  const list = useSectionList<T>(patientId, def.section);
  const save = useSaveItem(patientId, def.section);
  const remove = useDeleteItem(patientId, def.section);
  const [filterValue, setFilterValue] = useState(def.filter?.initial ?? '');
  const [editing, setEditing] = useState<{ item?: T; field?: string } | null>(null);

  const all = list.data ?? [];
  const items = def.filter ? def.filter.apply(all, filterValue) : all;
  const logFailure = (error: unknown) => console.error(`Saving ${def.noun} failed`, error);
  const update = (item: T) => (body: Record<string, unknown>) =>
    save.mutate({ ident: item.ident, body: { ...def.toBody(def.toValues(item)), ...body } }, { onError: logFailure });

  return (
    <>
      <SectionCard<T>
        title={def.title}
        noun={def.noun}
        items={items}
        isLoading={list.isPending}
        isError={list.isError}
        emptyText={def.filter ? def.filter.emptyText(filterValue) : def.emptyText}
        addLabel={def.addLabel}
        onAdd={() => setEditing({})}
        onEdit={(item, field) => setEditing({ item, field })}
        onTogglePin={(item) => update(item)({ pinned: pinnedWire(!isPinned(item)) })}
        onDelete={(item) => remove.mutateAsync(item.ident).catch((error: unknown) => console.error(`Deleting ${def.noun} failed`, error))}
        renderItem={def.renderItem}
        itemLabel={def.itemLabel}
        extraActions={def.extraActions ? (item) => def.extraActions!(item, update(item)) : undefined}
        filter={def.filter ? { label: def.filter.label, options: def.filter.options, value: filterValue, onChange: setFilterValue } : undefined}
        className={def.className}
        renderList={def.renderList}
      />
      {editing ? (
        <ItemForm<V>
          title={`${editing.item ? 'Edit' : 'Add'} ${def.formNoun}`}
          guardKey={def.guardKey}
          initial={def.toValues(editing.item)}
          toBody={def.toBody}
          schema={def.schema}
          save={(body, values) =>
            def.saveItem
              ? def.saveItem({ patientId, item: editing.item, values, body }).finally(() => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, def.section) }))
              : save.mutateAsync({ ident: editing.item?.ident, body })
          }
          onClose={() => setEditing(null)}
          saveOnDismiss={def.saveOnDismiss}
          failure={def.failure}
          focusField={editing.field}
        >
          {def.renderFields}
        </ItemForm>
      ) : null}
    </>
  );
}
