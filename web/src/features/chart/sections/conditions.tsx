import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { formatUsMonth } from '../../../../../shared/chart/fields.js';
import { DiagnosisInput, type Diagnosis } from '../../../../../shared/chart/sections.js';
import { Badge } from '../../../components/ui/badge.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { DateField, FieldRow, Icd10Field, TextAreaField, type CodeChoice } from '../components/fields.js';
import { dateRange, formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import { activeFilter, ActivePinnedToggles, codeChoice, CodeTag, noResults, type Stored } from './section-parts.js';

interface DiagnosisValues {
  name: string;
  description: string;
  date: string;
  endDate: string;
  active: boolean;
  pinned: boolean;
  icd: CodeChoice | null;
}

/** Picking a code fills an empty Name (required) from the code's description; a typed Name stays. */
export function nameAfterCodePick(name: string, code: CodeChoice | null): string {
  return !name.trim() && code?.description ? code.description : name;
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
    filter: redesign ? activeFilter('Condition status', noResults) : undefined,
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
        <Icd10Field
          name="icd10CodeId"
          value={v.icd}
          onChange={(x) => {
            set('icd', x);
            const name = nameAfterCodePick(v.name, x);
            if (name !== v.name) set('name', name);
          }}
        />
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
        meta={[dateRange(formatUsMonth(item.date), formatUsMonth(item.endDate)), formSourceText(item.formSource)]}
        note={item.description}
        fields={{ title: 'name', meta: 'date', note: 'description' }}
      />
    ),
    itemLabel: (item) => item.name,
  };
}
