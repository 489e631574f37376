import { useState } from 'react';
import {
  ADMINISTRATION_ROUTE_LABELS,
  ADMINISTRATION_ROUTES,
  ADMINISTRATION_SITE_LABELS,
  ADMINISTRATION_SITES,
  CHART_MESSAGES,
  type AdministrationRoute,
  type AdministrationSite,
} from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { VaccineInput, type VaccineGroupView } from '../../../../../shared/chart/sections.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Select } from '../../../components/ui/select.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toasts.js';
import {
  deleteVaccineSeries,
  renameVaccineSeries,
  useDeleteVaccine,
  usePinVaccineSeries,
  useFetchLatestVaccines,
  useRefetchVaccines,
  useSaveVaccine,
  useVaccines,
  type StoredVaccine,
} from '../api/vaccines-api.js';
import { isPinned, pinnedWire } from '../chart-lists.js';
import { DateField, FieldRow, TextAreaField, VaccineNameField } from './fields.js';
import { GroupCard } from './chart-card.js';
import { ItemForm } from './item-form.js';
import { chartDraftKey, chartDraftPrefix, useReopenDraft } from './section-panel.js';
import { SectionCard } from './section-card.js';

const DELETED = CHART_MESSAGES.deletedLinked('vaccine');
const countOf = (n: number) => `${n} ${n === 1 ? 'dose' : 'doses'}`;

interface VaccineValues {
  name: string;
  cvxCode: string;
  date: string;
  doseNumber: string;
  lotNumber: string;
  expirationDate: string;
  administrationSite: string;
  administrationRoute: string;
  administeringProviderName: string;
  adverseReactions: string;
  notes: string;
  pinned: boolean;
}

const SITE_OPTIONS = [{ id: '', label: 'Not specified' }, ...ADMINISTRATION_SITES.map((s) => ({ id: s, label: `${ADMINISTRATION_SITE_LABELS[s]} (${s})` }))];
const ROUTE_OPTIONS = [{ id: '', label: 'Not specified' }, ...ADMINISTRATION_ROUTES.map((r) => ({ id: r, label: `${ADMINISTRATION_ROUTE_LABELS[r]} (${r})` }))];

function toValues(item?: StoredVaccine, groupName?: string): VaccineValues {
  return {
    name: item?.name ?? groupName ?? '',
    cvxCode: item?.cvxCode ?? '',
    date: formatUsDate(item?.date),
    doseNumber: item?.doseNumber === undefined || item?.doseNumber === null ? '' : String(item.doseNumber),
    lotNumber: item?.lotNumber ?? '',
    expirationDate: formatUsDate(item?.expirationDate),
    administrationSite: item?.administrationSite ?? '',
    administrationRoute: item?.administrationRoute ?? '',
    administeringProviderName: item?.administeringProviderName ?? '',
    adverseReactions: item?.adverseReactions ?? '',
    notes: item?.notes ?? '',
    pinned: item ? isPinned(item) : false,
  };
}

function toBody(v: VaccineValues): Record<string, unknown> {
  return {
    name: v.name,
    cvxCode: v.cvxCode,
    date: v.date,
    doseNumber: v.doseNumber.trim() === '' ? undefined : v.doseNumber.trim(),
    lotNumber: v.lotNumber,
    expirationDate: v.expirationDate,
    administrationSite: v.administrationSite || undefined,
    administrationRoute: v.administrationRoute || undefined,
    administeringProviderName: v.administeringProviderName,
    adverseReactions: v.adverseReactions,
    notes: v.notes,
    pinned: pinnedWire(v.pinned),
  };
}

export function VaccinesPanel({ patientId }: { patientId: string }) {
  const list = useVaccines(patientId);
  const [editing, setEditing] = useState<{ item?: StoredVaccine; group?: VaccineGroupView } | null>(null);
  useReopenDraft(chartDraftPrefix(patientId, 'vaccines'), list.data?.items, (item) => setEditing({ item }));
  const refetch = useRefetchVaccines(patientId);
  const fetchLatest = useFetchLatestVaccines(patientId);
  const save = useSaveVaccine(patientId, list.data?.groups ?? []);
  const pinAll = usePinVaccineSeries(patientId);
  const remove = useDeleteVaccine(patientId);

  const items = list.data?.items ?? [];
  const groups = list.data?.groups ?? [];
  // Another user may have deleted the dose since the list was read.
  const failed = (what: string) => (error: unknown) => {
    if (isApiError(error, 404)) showToast(DELETED);
    else console.error(`${what} vaccine failed`, error);
  };

  return (
    <>
      <SectionCard<StoredVaccine>
        title="Vaccines"
        noun="vaccine"
        items={items}
        isLoading={list.isPending}
        isError={list.isError}
        emptyText={CHART_MESSAGES.noResults}
        onAdd={() => setEditing({})}
        onEdit={(item) => setEditing({ item })}
        onTogglePin={(item) =>
          save.mutate({ ident: item.ident, body: { ...toBody(toValues(item)), pinned: pinnedWire(!isPinned(item)) } }, { onError: failed('Saving') })
        }
        onDelete={(item) =>
          remove
            .mutateAsync(item.ident)
            // Notes that link this dose now show it as deleted; say so here too (spec §4).
            .then(() => (Array.isArray(item.noteDataLinks) && item.noteDataLinks.length ? void showToast(DELETED) : undefined))
            .catch(failed('Deleting'))
        }
        itemLabel={(item) => `${item.name}${item.doseNumber ? ` dose ${item.doseNumber}` : ''}${item.date ? ` ${formatUsDate(item.date)}` : ''}`}
        renderItem={(item) => (
          <div className="tw-chart-dose">
            <span className="tw-chart-dose__number">{item.doseNumber ? `Dose ${item.doseNumber}` : 'Dose'}</span>
            <span className="tw-chart-dose__date">{formatUsDate(item.date) || 'No date'}</span>
            <span className="tw-chart-muted">
              {[
                item.lotNumber && `Lot ${item.lotNumber}`,
                item.administrationSite && ADMINISTRATION_SITE_LABELS[item.administrationSite as AdministrationSite],
                item.administrationRoute && ADMINISTRATION_ROUTE_LABELS[item.administrationRoute as AdministrationRoute],
                item.cvxCode && `CVX ${item.cvxCode}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </div>
        )}
        renderList={(_, renderCard) => (
          <div className="tw-chart-groups">
            {groups.map((group) => {
              const doses = countOf(group.items.length);
              const groupId = group.groupId;
              return (
                <GroupCard
                  key={group.key}
                  name={group.name}
                  countLabel={doses}
                  listClassName="tw-chart-list--doses"
                  links={
                    <>
                      {group.groupId ? (
                        <button type="button" className="tw-chart-link-button" onClick={() => pinAll.mutate({ group, pinned: !group.items.every(isPinned) })}>
                          {group.items.every(isPinned) ? 'Unpin all' : 'Pin all'}
                        </button>
                      ) : null}
                      <button type="button" className="tw-chart-link-button" onClick={() => setEditing({ group })}>
                        Add dose
                      </button>
                    </>
                  }
                  // Only a stored series has a name of its own to change or a group to delete.
                  onRename={groupId ? (name) => renameVaccineSeries(patientId, groupId, name).finally(refetch) : undefined}
                  onDelete={groupId ? () => deleteVaccineSeries(patientId, groupId).finally(refetch) : undefined}
                  deleteText={`"${group.name}" and its ${doses} will be removed from the chart.`}
                >
                  {group.items.map((dose) => renderCard(dose as StoredVaccine))}
                </GroupCard>
              );
            })}
          </div>
        )}
      />
      {editing ? (
        <ItemForm<VaccineValues>
          title={editing.item ? 'Edit Vaccine' : 'Add Vaccine'}
          guardKey="vaccines"
          draftKey={chartDraftKey(patientId, 'vaccines', editing.item?.ident)}
          initial={toValues(editing.item, editing.group?.name)}
          toBody={toBody}
          schema={VaccineInput}
          version={editing.item?.version}
          loadLatest={
            editing.item
              ? async () => {
                  const ident = editing.item!.ident;
                  const fresh = await fetchLatest();
                  const item = fresh.items.find((v) => v.ident === ident);
                  return item ? { values: toValues(item, editing.group?.name), version: item.version ?? 1 } : undefined;
                }
              : undefined
          }
          save={(body, _values, version) =>
            save.mutateAsync({ ident: editing.item?.ident, group: editing.group, body: version !== undefined ? { ...body, version } : body })
          }
          onClose={() => setEditing(null)}
          goneMessage={editing.item ? DELETED : undefined}
          notice={editing.item && list.data && !list.data.items.some((v) => v.ident === editing.item!.ident) ? DELETED : undefined}
        >
          {(v, set) => (
            <>
              <VaccineNameField
                value={v.name}
                onChange={(x) => set('name', x)}
                onPick={(code) => {
                  set('name', code.shortDescription);
                  set('cvxCode', code.cvxCode);
                }}
                autoFocus={!editing.group}
              />
              <FieldRow>
                <DateField label="Date" name="date" value={v.date} onChange={(x) => set('date', x)} />
                <TextField
                  label="Dose number"
                  name="doseNumber"
                  inputMode="numeric"
                  value={v.doseNumber}
                  onChange={(x) => set('doseNumber', x)}
                  autoFocus={Boolean(editing.group)}
                />
              </FieldRow>
              <FieldRow>
                <TextField label="CVX code" name="cvxCode" value={v.cvxCode} onChange={(x) => set('cvxCode', x)} />
                <TextField label="Lot number" name="lotNumber" value={v.lotNumber} onChange={(x) => set('lotNumber', x)} />
              </FieldRow>
              <DateField label="Expiration Date" name="expirationDate" value={v.expirationDate} onChange={(x) => set('expirationDate', x)} />
              <FieldRow>
                <Select
                  label="Site"
                  name="administrationSite"
                  options={SITE_OPTIONS}
                  value={v.administrationSite}
                  onChange={(x) => set('administrationSite', x ?? '')}
                />
                <Select
                  label="Route"
                  name="administrationRoute"
                  options={ROUTE_OPTIONS}
                  value={v.administrationRoute}
                  onChange={(x) => set('administrationRoute', x ?? '')}
                />
              </FieldRow>
              <TextField
                label="Administered by"
                name="administeringProviderName"
                value={v.administeringProviderName}
                onChange={(x) => set('administeringProviderName', x)}
              />
              <TextAreaField label="Adverse reactions" name="adverseReactions" value={v.adverseReactions} onChange={(x) => set('adverseReactions', x)} />
              <TextAreaField label="Notes" name="notes" value={v.notes} onChange={(x) => set('notes', x)} />
              <Checkbox label="Pinned" isSelected={v.pinned} onChange={(x) => set('pinned', x)} />
            </>
          )}
        </ItemForm>
      ) : null}
    </>
  );
}
