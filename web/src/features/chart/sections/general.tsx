import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { GeneralInput, type General } from '../../../../../shared/chart/sections.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { TextField } from '../../../components/ui/text-field.js';
import { deleteGeneralGroup, renameGeneralGroup, saveGeneralItem } from '../api/general-groups-api.js';
import { pinnedWire } from '../chart-lists.js';
import { GroupCard } from '../components/chart-card.js';
import { DateField, FieldRow, Icd10Field, TextAreaField, type CodeChoice } from '../components/fields.js';
import { dateRange, formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import { codeChoice, CodeTag, countOf, type Stored } from './section-parts.js';

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
      <TextField
        label="Group"
        name="group.name"
        value={v.group}
        onChange={(x) => set('group', x)}
        description="Optional: items with the same group are listed together."
      />
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
      meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate)), formSourceText(item.formSource)]}
      note={item.details}
      fields={{ title: 'name', meta: 'startDate', note: 'details' }}
    />
  ),
  itemLabel: (item) => item.name,
  saveItem: ({ patientId, item, values, body }) => saveGeneralItem(patientId, values.group.trim(), body, item?.ident),
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
    return (
      <div className="tw-chart-groups">
        {loose.length ? <ul className="tw-chart-list">{loose.map(renderCard)}</ul> : null}
        {[...groups].map(([ident, { name, members }]) => (
          <GroupCard
            key={ident}
            name={name}
            countLabel={countOf(members.length, 'item', 'items')}
            onRename={(next) => renameGeneralGroup(patientId, ident, next).finally(refetch)}
            onDelete={() => deleteGeneralGroup(patientId, ident).finally(refetch)}
            deleteText={`"${name}" and its ${countOf(members.length, 'item', 'items')} will be removed from the chart.`}
          >
            {members.map(renderCard)}
          </GroupCard>
        ))}
      </div>
    );
  },
};
