import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { formatUsDate } from '../../../../../shared/chart/fields.js';
import { orderAnswers } from '../../../../../shared/chart/ordering.js';
import { SocialHistoryInput, type SocialHistory } from '../../../../../shared/chart/sections.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { TextField } from '../../../components/ui/text-field.js';
import { pinnedWire } from '../chart-lists.js';
import { DateField, FieldRow, TextAreaField } from '../components/fields.js';
import { dateRange, formSourceText, ItemSummary } from '../components/item-summary.js';
import type { SectionDefinition } from '../components/section-panel.js';
import type { Stored } from './section-parts.js';

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
      <ItemSummary
        title={item.question}
        meta={[dateRange(formatUsDate(item.startDate), formatUsDate(item.endDate))]}
        note={item.notes}
        fields={{ title: 'question', meta: 'startDate', note: 'notes' }}
      >
        {latest ? (
          <div className="tw-chart-answer">
            <span>{latest.answer}</span>
            <span className="tw-chart-muted">
              {[formatUsDate(latest.timestamp.slice(0, 10)), formSourceText(latest.formSource)].filter(Boolean).join(' · ')}
            </span>
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
