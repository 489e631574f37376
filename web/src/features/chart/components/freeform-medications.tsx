import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { FreeformMedicationInput, type FreeformMedication } from '../../../../../shared/chart/sections.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toasts.js';
import {
  deleteFreeformMedication,
  fetchFreeformMedications,
  freeformKey,
  freeformMedicationsQuery,
  saveFreeformMedication,
} from '../api/freeform-medications-api.js';
import { GroupCard, ItemCard } from './chart-card.js';
import { ItemForm } from './item-form.js';
import { chartDraftKey, chartDraftPrefix, useReopenDraft } from './section-panel.js';

const DELETED = CHART_MESSAGES.deletedLinked('medication');

/**
 * Medications recorded by name only (typed by the patient on a form, or not in the drug list):
 * listed under the coded medications in the same card, added, renamed and deleted here.
 */
export function FreeformMedications({ patientId }: { patientId: string }) {
  const queryClient = useQueryClient();
  const list = useQuery(freeformMedicationsQuery(patientId));
  const refetch = () => queryClient.invalidateQueries({ queryKey: freeformKey(patientId) });
  const save = useMutation({
    mutationFn: ({ ident, body }: { ident?: string; body: Record<string, unknown> }) => saveFreeformMedication(patientId, ident, body),
    onSettled: refetch,
  });
  const remove = useMutation({
    mutationFn: (ident: string) => deleteFreeformMedication(patientId, ident),
    onSettled: refetch,
  });
  const [editing, setEditing] = useState<{ item?: FreeformMedication } | null>(null);
  useReopenDraft(chartDraftPrefix(patientId, 'freeform-medications'), list.data, (item) => setEditing({ item }));
  const [pendingDelete, setPendingDelete] = useState<FreeformMedication | null>(null);
  const items = list.data ?? [];

  const add = (
    <button type="button" className="tw-chart-link-button" onClick={() => setEditing({})}>
      Add freeform medication
    </button>
  );

  return (
    <div className="tw-chart-freeform">
      {items.length ? (
        <GroupCard name="Freeform medications" countLabel={String(items.length)} links={add}>
          {items.map((item) => (
            <ItemCard
              key={item.ident}
              label={item.name}
              menuLabel={`Actions for freeform medication ${item.name}`}
              onEdit={() => setEditing({ item })}
              actions={[
                { id: 'edit', label: 'Edit', onAction: () => setEditing({ item }) },
                { id: 'delete', label: 'Delete', onAction: () => setPendingDelete(item) },
              ]}
            >
              <div className="tw-chart-item__title-row">
                <span className="tw-chart-item__title" data-field="name">
                  {item.name}
                </span>
              </div>
            </ItemCard>
          ))}
        </GroupCard>
      ) : list.isSuccess ? (
        <div className="tw-chart-freeform__empty">{add}</div>
      ) : null}
      {editing ? (
        <ItemForm<{ name: string }>
          title={`${editing.item ? 'Edit' : 'Add'} Freeform Medication`}
          guardKey="freeform-medications"
          draftKey={chartDraftKey(patientId, 'freeform-medications', editing.item?.ident)}
          initial={{ name: editing.item?.name ?? '' }}
          toBody={(v) => ({ name: v.name })}
          schema={FreeformMedicationInput}
          version={editing.item?.version}
          loadLatest={
            editing.item
              ? async () => {
                  const ident = editing.item!.ident;
                  const fresh = await queryClient.fetchQuery({
                    queryKey: freeformKey(patientId),
                    queryFn: () => fetchFreeformMedications(patientId),
                    staleTime: 0,
                  });
                  const item = fresh.find((i) => i.ident === ident);
                  return item ? { values: { name: item.name }, version: item.version ?? 1 } : undefined;
                }
              : undefined
          }
          save={(body, _values, version) => save.mutateAsync({ ident: editing.item?.ident, body: version !== undefined ? { ...body, version } : body })}
          onClose={() => setEditing(null)}
          failure="toast"
          goneMessage={editing.item ? DELETED : undefined}
        >
          {(v, set) => <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />}
        </ItemForm>
      ) : null}
      <ConfirmDialog
        isOpen={pendingDelete !== null}
        onOpenChange={(open) => (open ? undefined : setPendingDelete(null))}
        title="Delete freeform medication?"
        confirmLabel="Delete"
        tone="danger"
        isPending={remove.isPending}
        onConfirm={() => {
          if (!pendingDelete) return;
          remove
            .mutateAsync(pendingDelete.ident)
            .catch((error: unknown) => (isApiError(error, 404) ? void showToast(DELETED) : console.error('Deleting freeform medication failed', error)))
            .finally(() => setPendingDelete(null));
        }}
      >
        {pendingDelete ? `"${pendingDelete.name}" will be removed from the chart.` : null}
      </ConfirmDialog>
    </div>
  );
}
