import { CHART_MESSAGES, FAMILY_RELATION_LABELS, FAMILY_RELATIONS, type FamilyRelation } from '../../../../../shared/chart/constants.js';
import { FamilyHistoryInput, type FamilyHistory } from '../../../../../shared/chart/sections.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { Icd10Field, TextAreaField, type CodeChoice } from '../components/fields.js';
import { formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import { codeChoice, CodeTag, type Stored } from './section-parts.js';

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
      meta={[(item.family ?? []).map((r) => FAMILY_RELATION_LABELS[r] ?? r).join(', '), formSourceText(item.formSource)]}
      note={item.details}
      fields={{ title: 'diagnosis', note: 'details' }}
    />
  ),
  itemLabel: (item) => item.diagnosis,
};
