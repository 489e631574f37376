import { ALLERGY_SEVERITIES, ALLERGY_SEVERITY_LABELS, CHART_MESSAGES, type AllergySeverity } from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { AllergyInput, type Allergy } from '../../../../../shared/chart/sections.js';
import { Badge } from '../../../components/ui/badge.js';
import { Select } from '../../../components/ui/select.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { AllergenField, DateField, FieldRow, Icd10Field, TextAreaField, type CodeChoice } from '../components/fields.js';
import { ALLERGEN_KIND_LABELS, type AllergenRef } from '../../../../../shared/chart/drug-safety.js';
import { dateRange, formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import { activeFilter, ActivePinnedToggles, codeChoice, CodeTag, type Stored } from './section-parts.js';

const SEVERITY_TONE: Record<AllergySeverity, 'neutral' | 'warning' | 'danger'> = { mild: 'neutral', moderate: 'warning', severe: 'danger' };
const SEVERITY_OPTIONS = [{ id: '', label: 'Not specified' }, ...ALLERGY_SEVERITIES.map((s) => ({ id: s, label: ALLERGY_SEVERITY_LABELS[s] }))];

interface AllergyValues {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  severity: string;
  active: boolean;
  pinned: boolean;
  icd: CodeChoice | null;
  allergen: AllergenRef | null;
}

/** `redesign` is the clinical_problems_list_redesign layout: Active/Resolved filter, "No Active allergies". */
export function allergiesDefinition(redesign: boolean): SectionDefinition<Stored<Allergy>, AllergyValues> {
  return {
    section: 'allergies',
    title: 'Allergies',
    noun: 'allergy',
    formNoun: 'Allergy',
    emptyText: CHART_MESSAGES.noAllergies,
    addLabel: redesign ? undefined : 'Add Allergy',
    guardKey: 'allergies',
    schema: AllergyInput,
    saveOnDismiss: true,
    validateOnTouch: true,
    failure: 'log',
    filter: redesign ? activeFilter('Allergy status', CHART_MESSAGES.noAllergiesOf) : undefined,
    // Spec §3: a new form starts empty, pinned false, active true, no severity; empty dates are ''.
    toValues: (item) => ({
      name: item?.name ?? '',
      description: item?.description ?? '',
      startDate: formatUsDate(item?.startDate),
      endDate: formatUsDate(item?.endDate),
      severity: item?.severity ?? '',
      active: item ? item.active !== false : true,
      pinned: item?.pinned === true,
      icd: codeChoice(item?.icd10Code),
      allergen: item?.allergen ?? null,
    }),
    toBody: (v) => ({
      name: v.name,
      description: v.description,
      startDate: v.startDate,
      endDate: v.endDate,
      severity: v.severity || undefined,
      active: v.active,
      pinned: pinnedWire(v.pinned),
      // Spec §3: the code object goes only when both code and ident exist, with an empty description.
      ...(v.allergen ? { allergen: v.allergen } : {}),
      ...(v.icd?.code && v.icd.ident ? { icd10CodeId: v.icd.ident, icd10Code: { code: v.icd.code, ident: v.icd.ident, description: '' } } : {}),
    }),
    renderFields: (v, set) => (
      <>
        <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />
        <Select
          label="Severity"
          name="severity"
          options={SEVERITY_OPTIONS}
          value={v.severity}
          onChange={(x) => set('severity', x ?? '')}
          placeholder="Not specified"
        />
        <AllergenField value={v.allergen} onChange={(x) => set('allergen', x)} />
        <Icd10Field name="icd10CodeId" value={v.icd} onChange={(x) => set('icd', x)} />
        <FieldRow>
          <DateField label="Start Date" name="startDate" value={v.startDate} onChange={(x) => set('startDate', x)} />
          <DateField label="End Date" name="endDate" value={v.endDate} onChange={(x) => set('endDate', x)} />
        </FieldRow>
        <TextAreaField label="Description" name="description" value={v.description} onChange={(x) => set('description', x)} />
        <ActivePinnedToggles values={v} set={set} />
      </>
    ),
    renderItem: (item) => (
      <ItemSummary
        title={item.name}
        badges={
          <>
            {item.severity ? <Badge tone={SEVERITY_TONE[item.severity]}>{ALLERGY_SEVERITY_LABELS[item.severity]}</Badge> : null}
            {!redesign && item.active === false ? <Badge>Resolved</Badge> : null}
            <CodeTag code={item.icd10Code} />
            {item.allergen ? <Badge>{`${ALLERGEN_KIND_LABELS[item.allergen.kind]}: ${item.allergen.name}`}</Badge> : null}
          </>
        }
        meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate)), formSourceText(item.formSource)]}
        note={item.description}
        fields={{ title: 'name', meta: 'startDate', note: 'description' }}
      />
    ),
    itemLabel: (item) => item.name,
  };
}
