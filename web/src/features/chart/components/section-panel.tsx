import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { z } from '../../../../../shared/zod.js';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { isApiError } from '../../../lib/api-error.js';
import { clearFormDraft, formDraftKeys } from '../../../lib/form-drafts.js';
import { showToast } from '../../../lib/toasts.js';
import { chartKeys, listSection, useDeleteItem, useSaveItem, useSectionList, type ChartItem, type SectionKey } from '../api/chart-api.js';
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
  schema: z.ZodMiniType;
  toValues: (item?: T) => V;
  toBody: (values: V) => Record<string, unknown>;
  renderFields: (values: V, set: SetField<V>) => ReactNode;
  renderItem: (item: T) => ReactNode;
  itemLabel: (item: T) => string;
  filter?: SectionFilter<T>;
  extraActions?: (item: T, update: (body: Record<string, unknown>) => void) => ItemAction[];
  saveOnDismiss?: boolean;
  /** Field messages show as soon as a field is left (the allergy form, spec §5). */
  validateOnTouch?: boolean;
  /** Replaces the plain create/update call (general items saved into a group). */
  saveItem?: (args: { patientId: string; item?: T; values: V; body: Record<string, unknown> }) => Promise<unknown>;
  renderList?: (items: T[], renderCard: (item: T) => ReactNode, context: ListContext) => ReactNode;
  failure?: 'log' | 'toast' | 'inline';
  className?: string;
  /** The item's data type in note links and in "This {type} has been deleted"; the noun when absent. */
  linkType?: string;
  /** More of the section below its list (freeform medications under the coded ones). */
  footer?: (patientId: string) => ReactNode;
}

/** What a section's own list layout may need beyond its items. */
export interface ListContext {
  patientId: string;
  /** Refetches the section after a change made outside the item form (a group renamed or deleted). */
  refetch: () => Promise<unknown>;
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
  const refetch = () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, def.section) });
  const deletedMessage = CHART_MESSAGES.deletedLinked(def.linkType ?? def.noun);
  // Another user (or another tab) may have deleted the item since the list was read.
  const failed = (what: string) => (error: unknown) => {
    if (isApiError(error, 404)) showToast(deletedMessage);
    else console.error(`${what} ${def.noun} failed`, error);
  };
  // A card action (pin, resolve) sends only what it changes: the server leaves the other fields as
  // they are now, so it cannot undo someone else's edit made since the list was read.
  const update = (item: T) => (body: Record<string, unknown>) => save.mutate({ ident: item.ident, body }, { onError: failed('Saving') });
  const loadLatest = (ident: string) => async () => {
    const fresh = await queryClient.fetchQuery({
      queryKey: chartKeys.section(patientId, def.section),
      queryFn: () => listSection<T>(patientId, def.section),
      staleTime: 0,
    });
    const item = fresh.find((i) => i.ident === ident);
    return item ? { values: def.toValues(item), version: versionOf(item) ?? 1 } : undefined;
  };
  const openedItemGone = Boolean(editing?.item && list.data && !list.data.some((i) => i.ident === editing.item!.ident));
  useReopenDraft(chartDraftPrefix(patientId, def.section), list.data, (item) => setEditing({ item }));

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
        onDelete={(item) =>
          remove
            .mutateAsync(item.ident)
            // Notes that link this item now show it as deleted; say so here too (spec §4).
            .then(() => (hasNoteLinks(item) ? void showToast(deletedMessage) : undefined))
            .catch(failed('Deleting'))
        }
        renderItem={def.renderItem}
        itemLabel={def.itemLabel}
        extraActions={def.extraActions ? (item) => def.extraActions!(item, update(item)) : undefined}
        filter={def.filter ? { label: def.filter.label, options: def.filter.options, value: filterValue, onChange: setFilterValue } : undefined}
        className={def.className}
        renderList={def.renderList ? (list, renderCard) => def.renderList!(list, renderCard, { patientId, refetch }) : undefined}
        footer={def.footer?.(patientId)}
      />
      {editing ? (
        <ItemForm<V>
          title={`${editing.item ? 'Edit' : 'Add'} ${def.formNoun}`}
          guardKey={def.guardKey}
          draftKey={chartDraftKey(patientId, def.section, editing.item?.ident)}
          initial={def.toValues(editing.item)}
          toBody={def.toBody}
          schema={def.schema}
          version={editing.item ? versionOf(editing.item) : undefined}
          loadLatest={editing.item ? loadLatest(editing.item.ident) : undefined}
          save={(body, values, version) => {
            const sent = version !== undefined ? { ...body, version } : body;
            return def.saveItem
              ? def.saveItem({ patientId, item: editing.item, values, body: sent }).finally(refetch)
              : save.mutateAsync({ ident: editing.item?.ident, body: sent });
          }}
          onClose={() => setEditing(null)}
          saveOnDismiss={def.saveOnDismiss}
          validateOnTouch={def.validateOnTouch}
          failure={def.failure}
          focusField={editing.field}
          goneMessage={editing.item ? deletedMessage : undefined}
          notice={openedItemGone ? deletedMessage : undefined}
        >
          {def.renderFields}
        </ItemForm>
      ) : null}
    </>
  );
}

/** Unsaved chart form values live under chart:<patient>:<section>:<item or new>. */
export const chartDraftPrefix = (patientId: string, section: string) => `chart:${patientId}:${section}:`;
export const chartDraftKey = (patientId: string, section: string, ident: string | undefined) => `${chartDraftPrefix(patientId, section)}${ident ?? 'new'}`;

/**
 * A form of this section left unsaved by a navigation the router could not hold back opens again
 * with its text when the chart shows. A draft of an item deleted meanwhile is dropped.
 */
export function useReopenDraft<T extends ChartItem>(prefix: string, items: readonly T[] | undefined, reopen: (item: T | undefined) => void): void {
  // A ref, not state: the check happens once, and a state change would render the whole section again.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current || !items) return;
    checked.current = true;
    const [key] = formDraftKeys(prefix);
    if (!key) return;
    const ident = key.slice(prefix.length);
    if (ident === 'new') return reopen(undefined);
    const item = items.find((i) => i.ident === ident);
    if (item) reopen(item);
    else clearFormDraft(key);
  }, [items, prefix, reopen]);
}

function versionOf(item: ChartItem): number | undefined {
  return typeof item.version === 'number' ? item.version : undefined;
}

function hasNoteLinks(item: ChartItem): boolean {
  return Array.isArray(item.noteDataLinks) && item.noteDataLinks.length > 0;
}
