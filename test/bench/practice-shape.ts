/**
 * A practice after years of use, as the load run and the bench load it: notes spread over its
 * patients and texts over its conversations the way a practice's are, a few patients with hundreds
 * of notes and most with a few dozen, a few busy conversations and many quiet ones. Deterministic:
 * the same scale and seed write the same items. The items are built by the repositories' own item
 * builders, so they are keyed and indexed as the API writes them.
 */
import { createHash } from 'node:crypto';
import type { Patient } from '../../shared/patients/patient-schema.js';
import type { ConversationRecord, SmsNoteData } from '../../shared/messaging/messaging-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import {
  conversationIdFor,
  conversationItem,
  countsOf,
  noteStatusOf,
  smsNoteItem,
  type ConversationCounts,
} from '../../functions/data/messaging/messaging-repository.js';
import { toItem as noteItem } from '../../functions/data/notes/note-repository.js';
import type { Item } from '../../functions/lib/table/item.js';
import { seededRandom } from './load-mix.js';

export interface PracticeShape {
  patients: number;
  /** Clinical notes (signed visit notes), spread over the patients. */
  notes: number;
  /** Conversations: one per pair of a patient's phone and one of the practice's numbers. */
  conversations: number;
  /** Texts (SMS notes), spread over the conversations. */
  texts: number;
}

/**
 * The scale ladder. A 20-provider group after ten years holds about 20,000 patients, 1,000,000
 * notes, 200,000 conversations and 2,000,000 texts: 50 notes, 10 conversations and 100 texts a
 * patient, which the smaller scales keep.
 */
export const PRACTICE_SHAPES = {
  demo: shapeOf(100),
  '5k': shapeOf(5_000),
  '20k': shapeOf(20_000),
  large: shapeOf(20_000),
} satisfies Record<string, PracticeShape>;
export type PracticeScale = keyof typeof PRACTICE_SHAPES;

function shapeOf(patients: number): PracticeShape {
  return { patients, notes: patients * 50, conversations: patients * 10, texts: patients * 100 };
}

/** The practice's own numbers: one line per provider, as a group texting from each provider's number has. */
export const PRACTICE_LINES = Array.from({ length: 20 }, (_, i) => `+1541555${String(2000 + i).padStart(4, '0')}`);

/** How many notes the first patient holds: the chart the bench opens (the 200 notes on one patient). */
export const NOTES_ON_FIRST_PATIENT = 200;
/** The author an inbound text is stored with (functions/messaging/sms-inbound.ts). */
const INBOUND_AUTHOR = { userId: 'sms-inbound', name: 'Text message' };
const TEN_YEARS_MS = 10 * 365.25 * 86_400_000;
/** Log-normal spread of the notes per patient and texts per conversation: a median about half the mean, a long tail. */
const SPREAD_SIGMA = 1.2;

/** A standard normal draw (Box–Muller) from a uniform generator. */
function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * Splits `total` into `n` counts drawn from a log-normal spread, summing to exactly `total`. When
 * `first` is given, the first count is that many and the rest share the remainder.
 */
export function spread(total: number, n: number, seed: number, first?: number): number[] {
  if (n <= 0) return [];
  const rand = seededRandom(seed);
  const head = first === undefined ? [] : [Math.min(first, total)];
  const rest = total - (head[0] ?? 0);
  const weights = Array.from({ length: n - head.length }, () => Math.exp(SPREAD_SIGMA * normal(rand)));
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const counts = weights.map((w) => Math.floor((rest * w) / sum));
  // What the flooring left goes to the largest remainders, so the counts add up exactly.
  let left = rest - counts.reduce((a, b) => a + b, 0);
  const order = weights.map((w, i) => [(rest * w) / sum - counts[i], i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0 && order.length; k = (k + 1) % order.length, left--) counts[order[k][1]]++;
  return [...head, ...counts];
}

/** A stable id in the shape of a UUID, from what it names. */
export function stableId(name: string): string {
  const h = createHash('sha1').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface ShapeAuthor {
  userId: string;
  name: string;
}

/** The n-th instant of a patient's or conversation's history within the ten years before `end`, oldest first. */
function instants(count: number, end: number, rand: () => number): string[] {
  return Array.from({ length: count }, () => end - rand() * TEN_YEARS_MS)
    .sort((a, b) => a - b)
    .map((t) => new Date(Math.floor(t)).toISOString());
}

/**
 * The notes of the patients, patient by patient: signed visit notes of about 1 KB, as the chart's
 * timeline reads them. Yields batches of items for BatchWriteItem.
 */
export function* clinicalNoteItems(
  practiceId: string,
  patients: readonly Pick<Patient, 'id'>[],
  shape: PracticeShape,
  author: ShapeAuthor,
  end: Date,
  seed = 42,
): Generator<Item[]> {
  const counts = spread(shape.notes, patients.length, seed, Math.min(NOTES_ON_FIRST_PATIENT, shape.notes));
  const rand = seededRandom(seed + 1);
  let batch: Item[] = [];
  for (let p = 0; p < patients.length; p++) {
    const times = instants(counts[p], end.getTime(), rand);
    for (let k = 0; k < times.length; k++) {
      const at = times[k];
      const text = `Visit ${k + 1}. Subjective: follow-up. Objective: vitals stable. Assessment and plan: continue current treatment. `.repeat(3);
      const note: Note = {
        noteId: stableId(`note:${practiceId}:${patients[p].id}:${k}`),
        noteType: 'NOTE',
        status: 'SIGNED',
        signed: at,
        eventTimestamp: at,
        timestamp: at,
        createdAt: at,
        data: { text, formattedText: `<p>${text}</p>` },
        patientId: patients[p].id,
        hidden: false,
        files: [],
        author,
        onBehalfOf: null,
        noteVersion: 1,
        signedBy: author,
      };
      batch.push(noteItem(practiceId, note));
      if (batch.length === 25) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

export interface ConversationSeed {
  conversationId: string;
  patientPhone: string;
  practicePhone: string;
  patientId: string;
}

/**
 * The conversations: each patient's mobile with one line after another of the practice's numbers,
 * `shape.conversations` in all. Texts are shared out over them unevenly (busy and quiet ones).
 */
export function conversationSeeds(patients: readonly Pick<Patient, 'id' | 'phones'>[], shape: PracticeShape): ConversationSeed[] {
  const out: ConversationSeed[] = [];
  const withPhone = patients.filter((p) => p.phones?.length);
  for (let i = 0; i < shape.conversations && withPhone.length; i++) {
    const patient = withPhone[i % withPhone.length];
    const line = PRACTICE_LINES[Math.floor(i / withPhone.length) % PRACTICE_LINES.length];
    const patientPhone = patient.phones![0].number;
    out.push({ conversationId: conversationIdFor(patientPhone, line), patientPhone, practicePhone: line, patientId: patient.id });
  }
  return out;
}

/**
 * The texts of each conversation (SMS notes, in the patient's chart timeline and the phone's
 * history), then the conversation itself showing its last text. Every conversation is read (the
 * practice answered its texts). Yields batches; adds what the hub's counts gain to `counts`.
 */
export function* conversationItems(
  practiceId: string,
  seeds: readonly ConversationSeed[],
  patientNames: ReadonlyMap<string, string>,
  shape: PracticeShape,
  author: ShapeAuthor,
  end: Date,
  total: ConversationCounts,
  seed = 42,
): Generator<Item[]> {
  const counts = spread(shape.texts, seeds.length, seed + 2);
  const rand = seededRandom(seed + 3);
  let batch: Item[] = [];
  const push = function* (item: Item) {
    batch.push(item);
    if (batch.length === 25) {
      yield batch;
      batch = [];
    }
  };
  for (let c = 0; c < seeds.length; c++) {
    const s = seeds[c];
    const times = instants(Math.max(1, counts[c]), end.getTime(), rand);
    let last: Note | undefined;
    for (let k = 0; k < times.length; k++) {
      const at = times[k];
      const inbound = k % 2 === 1;
      const data: SmsNoteData = {
        from: inbound ? s.patientPhone : s.practicePhone,
        to: inbound ? s.practicePhone : s.patientPhone,
        text: inbound ? `Thank you, see you then (${k})` : `Reminder: your visit is coming up (${k})`,
        direction: inbound ? 'inbound' : 'outbound',
        deliveryStatus: inbound ? 'RECEIVED' : 'DELIVERED',
        failureReason: null,
        conversationId: s.conversationId,
        practicePhoneNumber: s.practicePhone,
        patientPhoneNumber: s.patientPhone,
        carrierMessageIds: [],
        sentBy: inbound ? null : author.userId,
        scheduledEventId: null,
        notificationId: null,
        timestamp: at,
      };
      last = {
        noteId: stableId(`sms:${practiceId}:${s.conversationId}:${k}`),
        noteType: 'SMS',
        status: noteStatusOf(data.deliveryStatus),
        signed: null,
        eventTimestamp: at,
        timestamp: at,
        createdAt: at,
        data,
        patientId: s.patientId,
        hidden: false,
        files: [],
        author: inbound ? INBOUND_AUTHOR : author,
        onBehalfOf: null,
        noteVersion: 1,
      };
      yield* push(smsNoteItem(practiceId, last));
    }
    const summary = (n: Note) => {
      const d = n.data as SmsNoteData;
      return { messageId: n.noteId, direction: d.direction, text: d.text, timestamp: d.timestamp, deliveryStatus: d.deliveryStatus };
    };
    const record: ConversationRecord = {
      conversationId: s.conversationId,
      patientPhoneNumber: s.patientPhone,
      practicePhoneNumber: s.practicePhone,
      patientIds: [s.patientId],
      patientNames: [patientNames.get(s.patientId) ?? ''].filter(Boolean),
      readStatus: 'READ',
      archived: false,
      unreadCount: 0,
      lastMessage: last ? summary(last) : null,
      lastInbound: null,
      participants: [],
      createdAt: times[0],
      updatedAt: times[times.length - 1],
      lastReadAt: times[times.length - 1],
    };
    yield* push(conversationItem(practiceId, record));
    const one = countsOf(record);
    for (const k of Object.keys(total) as (keyof ConversationCounts)[]) total[k] += one[k];
  }
  if (batch.length) yield batch;
}
