import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { SurgeryInput, type Surgery } from '../../../../../shared/chart/sections.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { DateField, TextAreaField } from '../components/fields.js';
import { formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import type { Stored } from './section-parts.js';

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
  renderItem: (item) => (
    <ItemSummary
      title={item.name}
      meta={[formatUsDate(item.date), formSourceText(item.formSource)]}
      note={item.description}
      fields={{ title: 'name', meta: 'date', note: 'description' }}
    />
  ),
  itemLabel: (item) => item.name,
};
