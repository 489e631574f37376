import {
  ALLERGY_SEVERITIES,
  ALLERGY_SEVERITY_LABELS,
  CHART_MESSAGES,
  FAMILY_RELATION_LABELS,
  FAMILY_RELATIONS,
  type AllergySeverity,
  type FamilyRelation,
} from '../../../../../shared/chart/constants.js';
import { formatUsDate, formatUsMonth, type Icd10CodeRef } from '../../../../../shared/chart/fields.js';
import { filterByActive, filterMedications, orderAnswers } from '../../../../../shared/chart/ordering.js';
import {
  AllergyInput,
  DiagnosisInput,
  FamilyHistoryInput,
  GeneralInput,
  MedicationInput,
  SocialHistoryInput,
  SurgeryInput,
  type Allergy,
  type Diagnosis,
  type FamilyHistory,
  type General,
  type GeneralGroup,
  type Medication,
  type SocialHistory,
  type Surgery,
} from '../../../../../shared/chart/sections.js';
import { Badge } from '../../../components/ui/badge.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Select } from '../../../components/ui/select.js';
import { TextField } from '../../../components/ui/text-field.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { sectionPath } from '../api/chart-api.js';
import { pinnedWire } from '../chart-lists.js';
import { GroupCard } from './chart-card.js';
import { FreeformMedications } from './freeform-medications.js';
import { DateField, DrugNameField, FieldRow, Icd10Field, TextAreaField, type CodeChoice } from './fields.js';
import { dateRange, ItemSummary } from './item-summary.js';
import type { SetField } from './item-form.js';
import type { SectionDefinition, SectionFilter } from './section-panel.js';

type Stored<T> = T & { ident: string; [field: string]: unknown };

const countOf = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A group deleted elsewhere is already gone: the refetch shows that; other failures are logged. */
function groupGone(error: unknown) {
  if (!isApiError(error, 404)) console.error('Deleting the group failed', error);
}

const ACTIVE_OPTIONS = [
  { id: 'Active', label: 'Active' },
  { id: 'Resolved', label: 'Resolved' },
] as const;

/** The Active and Pinned checkboxes of the allergy, condition and medication forms. */
function ActivePinnedToggles<V extends { active: boolean; pinned: boolean }>({ values, set }: { values: V; set: SetField<V> }) {
  return (
    <div className="tw-chart-form__toggles">
      <Checkbox label="Active" isSelected={values.active} onChange={(x) => set('active', x as V['active'])} />
      <Checkbox label="Pinned" isSelected={values.pinned} onChange={(x) => set('pinned', x as V['pinned'])} />
    </div>
  );
}

const codeChoice = (code: Icd10CodeRef | undefined): CodeChoice | null => (code?.ident && code.code ? { ident: code.ident, code: code.code, description: code.description ?? '' } : null);
const CodeTag = ({ code }: { code: Icd10CodeRef | undefined }) => (code?.code ? <span className="tw-chart-code" title={code.description}>{code.code}</span> : null);

const SEVERITY_TONE: Record<AllergySeverity, 'neutral' | 'warning' | 'danger'> = { mild: 'neutral', moderate: 'warning', severe: 'danger' };
const SEVERITY_OPTIONS = [{ id: '', label: 'Not specified' }, ...ALLERGY_SEVERITIES.map((s) => ({ id: s, label: ALLERGY_SEVERITY_LABELS[s] }))];

// ---------- Allergies ----------
interface AllergyValues {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  severity: string;
  active: boolean;
  pinned: boolean;
  icd: CodeChoice | null;
}

/** `redesign` is the clinical_problems_list_redesign layout: Active/Resolved filter, "No Active allergies". */
export function allergiesDefinition(redesign: boolean): SectionDefinition<Stored<Allergy>, AllergyValues> {
  const filter: SectionFilter<Stored<Allergy>> | undefined = redesign
    ? {
        label: 'Allergy status',
        options: ACTIVE_OPTIONS,
        initial: 'Active',
        apply: (items, value) => filterByActive(items, value as 'Active' | 'Resolved'),
        emptyText: (value) => CHART_MESSAGES.noAllergiesOf(value as 'Active' | 'Resolved'),
      }
    : undefined;
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
    filter,
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
      ...(v.icd?.code && v.icd.ident ? { icd10CodeId: v.icd.ident, icd10Code: { code: v.icd.code, ident: v.icd.ident, description: '' } } : {}),
    }),
    renderFields: (v, set) => (
      <>
        <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />
        <Select label="Severity" name="severity" options={SEVERITY_OPTIONS} value={v.severity} onChange={(x) => set('severity', x ?? '')} placeholder="Not specified" />
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
          </>
        }
        meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate))]}
        note={item.description}
        fields={{ title: 'name', meta: 'startDate', note: 'description' }}
      />
    ),
    itemLabel: (item) => item.name,
  };
}

// ---------- Medical conditions (diagnoses) ----------
interface DiagnosisValues {
  name: string;
  description: string;
  date: string;
  endDate: string;
  active: boolean;
  pinned: boolean;
  icd: CodeChoice | null;
}

export function conditionsDefinition(redesign: boolean): SectionDefinition<Stored<Diagnosis>, DiagnosisValues> {
  return {
    section: 'diagnoses',
    title: 'Medical Conditions',
    noun: 'medical condition',
    linkType: 'diagnosis',
    formNoun: redesign ? 'Medical Condition' : 'Diagnosis',
    emptyText: CHART_MESSAGES.noDiagnoses,
    addLabel: redesign ? undefined : 'Add Diagnosis',
    guardKey: 'diagnoses',
    schema: DiagnosisInput,
    failure: 'log',
    filter: redesign
      ? {
          label: 'Condition status',
          options: ACTIVE_OPTIONS,
          initial: 'Active',
          apply: (items, value) => filterByActive(items, value as 'Active' | 'Resolved'),
          emptyText: () => CHART_MESSAGES.noResults,
        }
      : undefined,
    toValues: (item) => ({
      name: item?.name ?? '',
      description: item?.description ?? '',
      date: formatUsMonth(item?.date),
      endDate: formatUsMonth(item?.endDate),
      active: item ? item.active !== false : true,
      pinned: item?.pinned === true,
      icd: codeChoice(item?.icd10Code),
    }),
    toBody: (v) => ({
      name: v.name,
      description: v.description,
      date: v.date,
      endDate: v.endDate,
      active: v.active,
      pinned: pinnedWire(v.pinned),
      ...(v.icd?.ident ? { icd10CodeId: v.icd.ident } : {}),
    }),
    renderFields: (v, set) => (
      <>
        <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />
        <Icd10Field name="icd10CodeId" value={v.icd} onChange={(x) => set('icd', x)} />
        <FieldRow>
          <DateField month label="Start Date" name="date" value={v.date} onChange={(x) => set('date', x)} />
          <DateField month label="End Date" name="endDate" value={v.endDate} onChange={(x) => set('endDate', x)} />
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
            {!redesign && item.active === false ? <Badge>Resolved</Badge> : null}
            <CodeTag code={item.icd10Code ?? (item.icd10CodeId ? { ident: item.icd10CodeId, code: item.icd10CodeId, description: '' } : undefined)} />
          </>
        }
        meta={[dateRange(formatUsMonth(item.date), formatUsMonth(item.endDate))]}
        note={item.description}
        fields={{ title: 'name', meta: 'date', note: 'description' }}
      />
    ),
    itemLabel: (item) => item.name,
  };
}

// ---------- Medications ----------
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
    emptyText: () => CHART_MESSAGES.noResults,
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
      <TextField label="NDC" name="code.value" value={v.ndc} onChange={(x) => set('ndc', x)} placeholder={CHART_MESSAGES.ndcPlaceholder} description={CHART_MESSAGES.ndcHint} />
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
      meta={[[item.strength, item.strengthUOM].filter(Boolean).join(' '), item.dosageForm?.toLowerCase(), item.sigText, dateRange(formatUsDate(item.start), formatUsDate(item.end)), item.code?.value ? `NDC ${item.code.value}` : null]}
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

// ---------- Surgical history ----------
interface SurgeryValues {
  name: string;
  date: string;
  description: string;
  pinned: boolean;
}

export const surgeriesDefinition: SectionDefinition<Stored<Surgery>, SurgeryValues> = {
  section: 'surgeries',
  title: 'Surgical History',
  noun: 'surgery',
  formNoun: 'Surgery',
  emptyText: CHART_MESSAGES.noSurgeries,
  guardKey: 'surgeries',
  schema: SurgeryInput,
  toValues: (item) => ({ name: item?.name ?? '', date: formatUsDate(item?.date), description: item?.description ?? '', pinned: item?.pinned === true }),
  toBody: (v) => ({ name: v.name, date: v.date, description: v.description, pinned: pinnedWire(v.pinned) }),
  renderFields: (v, set) => (
    <>
      <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />
      <DateField label="Date" name="date" value={v.date} onChange={(x) => set('date', x)} />
      <TextAreaField label="Description" name="description" value={v.description} onChange={(x) => set('description', x)} />
      <Checkbox label="Pinned" isSelected={v.pinned} onChange={(x) => set('pinned', x)} />
    </>
  ),
  renderItem: (item) => <ItemSummary title={item.name} meta={[formatUsDate(item.date)]} note={item.description} fields={{ title: 'name', meta: 'date', note: 'description' }} />,
  itemLabel: (item) => item.name,
};

// ---------- Family history ----------
interface FamilyValues {
  diagnosis: string;
  family: FamilyRelation[];
  details: string;
  pinned: boolean;
  icd: CodeChoice | null;
}

export const familyHistoryDefinition: SectionDefinition<Stored<FamilyHistory>, FamilyValues> = {
  section: 'familyHistory',
  title: 'Family History',
  noun: 'family history item',
  formNoun: 'Family History',
  emptyText: CHART_MESSAGES.noResults,
  guardKey: 'family-history',
  schema: FamilyHistoryInput,
  toValues: (item) => ({
    diagnosis: item?.diagnosis ?? '',
    family: [...(item?.family ?? [])],
    details: item?.details ?? '',
    pinned: item?.pinned === true,
    icd: codeChoice(item?.icd10Code),
  }),
  toBody: (v) => ({
    diagnosis: v.diagnosis,
    family: v.family,
    details: v.details,
    pinned: pinnedWire(v.pinned),
    ...(v.icd?.ident ? { icd10CodeId: v.icd.ident } : {}),
  }),
  renderFields: (v, set) => (
    <>
      <TextField label="Diagnosis" name="diagnosis" isRequired value={v.diagnosis} onChange={(x) => set('diagnosis', x)} autoFocus />
      <Icd10Field name="icd10CodeId" value={v.icd} onChange={(x) => set('icd', x)} />
      <fieldset className="tw-chart-fieldset">
        <legend className="tw-field__label">Family members</legend>
        <div className="tw-chart-relations">
          {FAMILY_RELATIONS.map((relation) => (
            <Checkbox
              key={relation}
              label={FAMILY_RELATION_LABELS[relation]}
              isSelected={v.family.includes(relation)}
              onChange={(on) => set('family', on ? [...v.family, relation] : v.family.filter((r) => r !== relation))}
            />
          ))}
        </div>
      </fieldset>
      <TextAreaField label="Details" name="details" value={v.details} onChange={(x) => set('details', x)} />
      <Checkbox label="Pinned" isSelected={v.pinned} onChange={(x) => set('pinned', x)} />
    </>
  ),
  renderItem: (item) => (
    <ItemSummary
      title={item.diagnosis}
      badges={<CodeTag code={item.icd10Code} />}
      meta={[(item.family ?? []).map((r) => FAMILY_RELATION_LABELS[r] ?? r).join(', ')]}
      note={item.details}
      fields={{ title: 'diagnosis', note: 'details' }}
    />
  ),
  itemLabel: (item) => item.diagnosis,
};

// ---------- Social history ----------
interface SocialValues {
  question: string;
  answer: string;
  startDate: string;
  endDate: string;
  notes: string;
  pinned: boolean;
}

export const socialHistoryDefinition: SectionDefinition<Stored<SocialHistory>, SocialValues> = {
  section: 'socialHistory',
  title: 'Social History',
  noun: 'social history item',
  formNoun: 'Social History',
  emptyText: CHART_MESSAGES.noResults,
  guardKey: 'social-history',
  schema: SocialHistoryInput,
  toValues: (item) => ({
    question: item?.question ?? '',
    answer: orderAnswers(item?.answers ?? [])[0]?.answer ?? '',
    startDate: formatUsDate(item?.startDate),
    endDate: formatUsDate(item?.endDate),
    notes: item?.notes ?? '',
    pinned: item?.pinned === true,
  }),
  // The API appends the answer only when it differs from the newest one (spec §3).
  toBody: (v) => ({ question: v.question, answer: v.answer, startDate: v.startDate, endDate: v.endDate, notes: v.notes, pinned: pinnedWire(v.pinned) }),
  renderFields: (v, set) => (
    <>
      <TextField label="Question" name="question" isRequired value={v.question} onChange={(x) => set('question', x)} autoFocus placeholder="e.g. Tobacco use" />
      <TextField label="Answer" name="answer" value={v.answer} onChange={(x) => set('answer', x)} />
      <FieldRow>
        <DateField label="Start Date" name="startDate" value={v.startDate} onChange={(x) => set('startDate', x)} />
        <DateField label="End Date" name="endDate" value={v.endDate} onChange={(x) => set('endDate', x)} />
      </FieldRow>
      <TextAreaField label="Notes" name="notes" value={v.notes} onChange={(x) => set('notes', x)} />
      <Checkbox label="Pinned" isSelected={v.pinned} onChange={(x) => set('pinned', x)} />
    </>
  ),
  renderItem: (item) => {
    const [latest, ...older] = orderAnswers(item.answers ?? []);
    return (
      <ItemSummary title={item.question} meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate))]} note={item.notes} fields={{ title: 'question', meta: 'startDate', note: 'notes' }}>
        {latest ? (
          <div className="tw-chart-answer">
            <span>{latest.answer}</span>
            <span className="tw-chart-muted">{formatUsDate(latest.timestamp.slice(0, 10))}</span>
          </div>
        ) : null}
        {older.length ? (
          <ul className="tw-chart-answers" aria-label="Earlier answers">
            {older.map((answer) => (
              <li key={answer.ident}>
                <span>{answer.answer}</span>
                <span className="tw-chart-muted">{formatUsDate(answer.timestamp.slice(0, 10))}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </ItemSummary>
    );
  },
  itemLabel: (item) => item.question,
};

// ---------- General information ----------
interface GeneralValues {
  /** The group (e.g. "Preventive care") the item is filed under; empty for none. */
  group: string;
  name: string;
  details: string;
  startDate: string;
  endDate: string;
  pinned: boolean;
  icd: CodeChoice | null;
}

export const generalDefinition: SectionDefinition<Stored<General>, GeneralValues> = {
  section: 'general',
  title: 'General',
  noun: 'general item',
  formNoun: 'General Information',
  emptyText: CHART_MESSAGES.noResults,
  guardKey: 'general',
  schema: GeneralInput,
  toValues: (item) => ({
    group: item?.grouping?.name ?? '',
    name: item?.name ?? '',
    details: item?.details ?? '',
    startDate: formatUsDate(item?.startDate),
    endDate: formatUsDate(item?.endDate),
    pinned: item?.pinned === true,
    icd: codeChoice(item?.icd10Code),
  }),
  toBody: (v) => ({
    name: v.name,
    details: v.details,
    startDate: v.startDate,
    endDate: v.endDate,
    pinned: pinnedWire(v.pinned),
    ...(v.icd?.ident ? { icd10CodeId: v.icd.ident } : {}),
  }),
  renderFields: (v, set) => (
    <>
      <TextField label="Name" name="name" isRequired value={v.name} onChange={(x) => set('name', x)} autoFocus />
      <TextField label="Group" name="group.name" value={v.group} onChange={(x) => set('group', x)} description="Optional: items with the same group are listed together." />
      <TextAreaField label="Details" name="details" value={v.details} onChange={(x) => set('details', x)} />
      <Icd10Field name="icd10CodeId" value={v.icd} onChange={(x) => set('icd', x)} />
      <FieldRow>
        <DateField label="Start Date" name="startDate" value={v.startDate} onChange={(x) => set('startDate', x)} />
        <DateField label="End Date" name="endDate" value={v.endDate} onChange={(x) => set('endDate', x)} />
      </FieldRow>
      <Checkbox label="Pinned" isSelected={v.pinned} onChange={(x) => set('pinned', x)} />
    </>
  ),
  renderItem: (item) => (
    <ItemSummary
      title={item.name}
      badges={<CodeTag code={item.icd10Code} />}
      meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate))]}
      note={item.details}
      fields={{ title: 'name', meta: 'startDate', note: 'details' }}
    />
  ),
  itemLabel: (item) => item.name,
  saveItem: saveGeneralItem,
  renderList: (items, renderCard, { patientId, refetch }) => {
    const loose = items.filter((item) => !item.grouping?.ident);
    // Grouped by the stored group (its ident), in the order the API lists them (pinned first).
    const groups = new Map<string, { name: string; members: Stored<General>[] }>();
    for (const item of items) {
      const grouping = item.grouping;
      if (!grouping?.ident) continue;
      const group = groups.get(grouping.ident) ?? { name: grouping.name, members: [] };
      group.members.push(item);
      groups.set(grouping.ident, group);
    }
    const groupPath = (ident: string) => `/v1/patients/${encodeURIComponent(patientId)}/general-groups/${encodeURIComponent(ident)}`;
    return (
      <div className="tw-chart-groups">
        {loose.length ? <ul className="tw-chart-list">{loose.map(renderCard)}</ul> : null}
        {[...groups].map(([ident, { name, members }]) => (
          <GroupCard
            key={ident}
            name={name}
            countLabel={countOf(members.length, 'item', 'items')}
            onRename={(next) => apiRequest({ method: 'PUT', path: groupPath(ident), body: { name: next } }).finally(refetch)}
            // Deleting a group deletes its items (the API removes them with it).
            onDelete={() => apiRequest({ method: 'DELETE', path: groupPath(ident) }).catch(groupGone).finally(refetch)}
            deleteText={`"${name}" and its ${countOf(members.length, 'item', 'items')} will be removed from the chart.`}
          >
            {members.map(renderCard)}
          </GroupCard>
        ))}
      </div>
    );
  },
};

/**
 * An item with a group goes through the general-groups call (spec §7: group name and items):
 * into the existing group of that name, or a new one. Without a group it is a plain item.
 */
async function saveGeneralItem({ patientId, item, values, body }: { patientId: string; item?: Stored<General>; values: GeneralValues; body: Record<string, unknown> }) {
  const groupName = values.group.trim();
  if (!groupName) return apiRequest({ method: item ? 'PUT' : 'POST', path: sectionPath(patientId, 'general', item?.ident), body });
  const current = await apiRequest<{ groups?: GeneralGroup[] }>({ path: sectionPath(patientId, 'general') });
  const existing = (current.groups ?? []).find((group) => group.name.trim().toLowerCase() === groupName.toLowerCase());
  const groupBody = { name: existing?.name ?? groupName, items: [{ ...(item ? { ident: item.ident } : {}), ...body }] };
  const base = `/v1/patients/${encodeURIComponent(patientId)}/general-groups`;
  return existing
    ? apiRequest({ method: 'PUT', path: `${base}/${encodeURIComponent(existing.ident)}`, body: { ...groupBody, ident: existing.ident } })
    : apiRequest({ method: 'POST', path: base, body: groupBody });
}
