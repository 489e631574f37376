import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { filterMedications } from '../../../../../shared/chart/ordering.js';
import { MedicationInput, type Medication } from '../../../../../shared/chart/sections.js';
import { Badge } from '../../../components/ui/badge.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { DateField, DrugNameField, FieldRow, TextAreaField } from '../components/fields.js';
import { FreeformMedications } from '../components/freeform-medications.js';
import { dateRange, formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import { ActivePinnedToggles, noResults, type Stored } from './section-parts.js';

interface MedicationValues {
  productName: string;
  ndc: string;
  strength: string;
  strengthUOM: string;
  sigText: string;
  start: string;
  end: string;
  description: string;
  active: boolean;
  pinned: boolean;
  dosageForm: string;
}

export const medicationsDefinition: SectionDefinition<Stored<Medication>, MedicationValues> = {
  section: 'medications',
  title: 'Medications',
  noun: 'medication',
  formNoun: 'Medication',
  emptyText: CHART_MESSAGES.noResults,
  guardKey: 'medications',
  schema: MedicationInput,
  failure: 'toast',
  filter: {
    label: 'Medication status',
    options: [
      { id: 'Active', label: 'Active' },
      { id: 'Discontinued', label: 'Discontinued' },
    ],
    initial: 'Active',
    apply: (items, value) => filterMedications(items, value as 'Active' | 'Discontinued'),
    emptyText: noResults,
  },
  toValues: (item) => ({
    productName: item?.productName ?? '',
    ndc: item?.code?.value ?? '',
    strength: item?.strength ?? '',
    strengthUOM: item?.strengthUOM ?? '',
    sigText: item?.sigText ?? '',
    start: formatUsDate(item?.start),
    end: formatUsDate(item?.end),
    description: item?.description ?? '',
    active: item ? item.status !== 'Complete' : true,
    pinned: item?.pinned === true,
    dosageForm: item?.dosageForm ?? '',
  }),
  toBody: (v) => ({
    productName: v.productName,
    strength: v.strength,
    strengthUOM: v.strengthUOM,
    sigText: v.sigText,
    start: v.start,
    end: v.end,
    description: v.description,
    // Spec §2: the Active checkbox maps to status Active (checked) or Complete (unchecked).
    status: v.active ? 'Active' : 'Complete',
    pinned: pinnedWire(v.pinned),
    ...(v.dosageForm ? { dosageForm: v.dosageForm } : {}),
    ...(v.ndc.trim() ? { code: { type: 'NDC', value: v.ndc.trim() } } : {}),
  }),
  renderFields: (v, set) => (
    <>
      <DrugNameField
        value={v.productName}
        onChange={(x) => set('productName', x)}
        onPick={(drug) => {
          set('productName', drug.productName);
          set('strength', drug.strength ?? '');
          set('strengthUOM', drug.strengthUOM ?? '');
          set('dosageForm', drug.dosageForm ?? '');
          set('ndc', drug.ndc ?? '');
        }}
      />
      <TextField
        label="NDC"
        name="code.value"
        value={v.ndc}
        onChange={(x) => set('ndc', x)}
        placeholder={CHART_MESSAGES.ndcPlaceholder}
        description={CHART_MESSAGES.ndcHint}
      />
      <FieldRow>
        <TextField label="Strength" name="strength" value={v.strength} onChange={(x) => set('strength', x)} />
        <TextField label="Units" name="strengthUOM" value={v.strengthUOM} onChange={(x) => set('strengthUOM', x)} />
      </FieldRow>
      <TextField label="Sig" name="sigText" value={v.sigText} onChange={(x) => set('sigText', x)} placeholder="e.g. 1 tablet by mouth daily" />
      <FieldRow>
        <DateField label="Start Date" name="start" value={v.start} onChange={(x) => set('start', x)} />
        <DateField label="End Date" name="end" value={v.end} onChange={(x) => set('end', x)} />
      </FieldRow>
      <TextAreaField label="Details" name="description" value={v.description} onChange={(x) => set('description', x)} />
      <ActivePinnedToggles values={v} set={set} />
    </>
  ),
  renderItem: (item) => (
    <ItemSummary
      title={item.productName}
      badges={item.status === 'Complete' ? <Badge>Discontinued</Badge> : null}
      meta={[
        [item.strength, item.strengthUOM].filter(Boolean).join(' '),
        item.dosageForm?.toLowerCase(),
        item.sigText,
        dateRange(formatUsDate(item.start), formatUsDate(item.end)),
        item.code?.value ? `NDC ${item.code.value}` : null,
        formSourceText(item.formSource),
      ]}
      note={item.description}
      fields={{ title: 'productName', meta: 'sigText', note: 'description' }}
    />
  ),
  itemLabel: (item) => item.productName,
  footer: (patientId) => <FreeformMedications patientId={patientId} />,
  // Spec §4: Move to History sets status Complete, Move to Active returns it to Active.
  extraActions: (item, update) =>
    item.status === 'Complete'
      ? [{ id: 'to-active', label: 'Move to Active', onAction: () => update({ status: 'Active' }) }]
      : [{ id: 'to-history', label: 'Move to History', onAction: () => update({ status: 'Complete' }) }],
};
