import { labAbnormality, labRangeText, labValueText, type LabResultItem } from '../../../shared/labs/lab-format.js';
import { isSignedStatus } from '../../../shared/notes/note-constants.js';
import { listPatientNotes } from '../../data/notes/note-repository.js';

/** How far back the Copilot looks for the last visit and results: a year of notes at most. */
const LOOKBACK_DAYS = 365;
/** Result lines the model sees, newest report first. */
const RESULT_LINES = 12;
/** Characters of the last visit's text the model sees. */
const VISIT_TEXT = 400;
const VISIT_TYPES = new Set(['NOTE', 'VITALS', 'PHONE_CALL', 'RX']);

const day = (iso: string) => iso.slice(0, 10);
const plain = (text: unknown) =>
  typeof text === 'string'
    ? text
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';

function resultLine(item: LabResultItem, when: string): string {
  const flag = labAbnormality(item);
  const range = labRangeText(item);
  return [`${item.text} ${labValueText(item)}`.trim(), flag ? `(${flag})` : '', range ? `range ${range}` : '', `on ${day(item.issued ?? when)}`]
    .filter(Boolean)
    .join(' ');
}

/**
 * The chart's recent history for the Copilot: the last signed visit and the latest lab results.
 * Kept out of the ai function's first load (imported when a patient is in context).
 */
export async function patientHistoryLines(practiceId: string, patientId: string, now: Date): Promise<string[]> {
  const from = new Date(now.getTime() - LOOKBACK_DAYS * 86_400_000).toISOString();
  const notes = await listPatientNotes(practiceId, patientId, { from, newestFirst: true });
  const live = notes.filter((n) => n.status !== 'DELETED');
  const visit = live.find((n) => VISIT_TYPES.has(n.noteType) && isSignedStatus(n.status));
  const visitLine = visit
    ? `Last visit: ${day(visit.eventTimestamp)}, ${visit.noteType.replace('_', ' ').toLowerCase()} by ${visit.author.name || 'the practice'}${plain(visit.data?.text) ? `: ${plain(visit.data?.text).slice(0, VISIT_TEXT)}` : ''}.`
    : 'Last visit: none recorded.';
  const results = live
    .filter((n) => n.noteType === 'LAB')
    .flatMap((n) => ((n.data as { results?: LabResultItem[] } | undefined)?.results ?? []).map((r) => resultLine(r, n.eventTimestamp)))
    .slice(0, RESULT_LINES);
  return [visitLine, `Recent results: ${results.length ? results.join('; ') : 'none recorded'}.`];
}
