import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NOTE_MESSAGES } from '../../../shared/notes/note-constants.js';
import { Note } from '../../../shared/notes/note-schema.js';
import { isExternalNoteType, PARTNER_MESSAGES } from '../../../shared/partners/partner-constants.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';
import { markerWritten } from '../../lib/table/backfill-marker.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { putIfUnchanged } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';

/*
 * Note items and their access patterns (docs/access-patterns.md):
 *   item              pk practiceId, sk NOTE#<noteId>
 *   by patient/time   gsi1 gsi1pk NOTES#<patientId>, gsi1sk <eventTimestamp>#<noteId>
 *   chart notes       gsi2 gsi2pk CHARTNOTES#<practiceId>#<patientId>, gsi2sk as gsi1's: every note of
 *                     the patient but texts (an SMS note's gsi2 is its phone's history), so the
 *                     chart's timeline reads the patient's notes without their conversations' texts
 * A note without a patient (a fresh draft from the palette) has no gsi1 or gsi2 keys until one is chosen.
 */
export const noteKey = (noteId: string) => `NOTE#${noteId}`;
export const notesByPatientPartition = (patientId: string) => `NOTES#${patientId}`;
export const noteTimeSortKey = (n: Pick<Note, 'eventTimestamp' | 'noteId'>) => `${n.eventTimestamp}#${n.noteId}`;

export const chartNotesPartition = (practiceId: string, patientId: string) => `CHARTNOTES#${practiceId}#${patientId}`;
/** Set once every note written before the chart-notes keys has them (note-backfill.ts). */
export const CHART_NOTE_KEYS_MARKER = 'NOTE_KEYS#CHART';

/** The chart-notes index keys of a note: every note with a patient but a text. */
export function chartNoteKeys(
  practiceId: string,
  n: Pick<Note, 'noteType' | 'patientId' | 'eventTimestamp' | 'noteId'>,
): { gsi2pk: string; gsi2sk: string } | null {
  return n.patientId && n.noteType !== 'SMS' ? { gsi2pk: chartNotesPartition(practiceId, n.patientId), gsi2sk: noteTimeSortKey(n) } : null;
}

export function toItem(practiceId: string, n: Note): Item {
  return {
    ...n,
    practiceId,
    sk: noteKey(n.noteId),
    entityType: 'NOTE',
    ...(n.patientId ? { gsi1pk: notesByPatientPartition(n.patientId), gsi1sk: noteTimeSortKey(n) } : {}),
    ...chartNoteKeys(practiceId, n),
  };
}

export const fromItem = (item: Item): Note => parseItem('note', Note, item);

export async function getNote(practiceId: string, noteId: string): Promise<Note | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: noteKey(noteId) }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

export async function requireNote(practiceId: string, noteId: string): Promise<Note> {
  const note = await getNote(practiceId, noteId);
  if (!note) throw new NotFoundError(NOTE_MESSAGES.notFound);
  return note;
}

export async function insertNote(practiceId: string, note: Note): Promise<Note> {
  try {
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: toItem(practiceId, note), ConditionExpression: 'attribute_not_exists(sk)' }));
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('A note with this id already exists');
    throw error;
  }
  return note;
}

/** A quick refusal before any work; the write's condition expression still guards the race. */
export function assertVersion(note: Note, seen: number): void {
  if (note.noteVersion !== seen) throw new ConflictError(NOTE_MESSAGES.staleVersion, { noteVersion: note.noteVersion });
}

/**
 * Writes the next version of `current` (changes applied, noteVersion + 1, timestamp now) only if
 * the stored note still has current.noteVersion. Timeline of a race: two windows read version 3 →
 * both send noteVersion 3 → the first write passes (stored becomes 4) → the second fails its
 * condition → 409 with the reload message and the stored version, so neither edit overwrites the
 * other unseen.
 */
export async function writeNextVersion(practiceId: string, current: Note, changes: Partial<Note>, now: Date): Promise<Note> {
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  if (!(await putIfUnchanged(toItem(practiceId, next), 'noteVersion', current.noteVersion))) {
    const still = await getNote(practiceId, current.noteId);
    if (!still) throw new NotFoundError(NOTE_MESSAGES.notFound);
    throw new ConflictError(NOTE_MESSAGES.staleVersion, { noteVersion: still.noteVersion });
  }
  return next;
}

export interface VersionedUpdate {
  /** Rules checked before the version (a refusal that does not depend on what the caller saw). */
  precheck?: (current: Note) => void;
  now?: Date;
  /** Deleting is the one change a user makes to a note an outside system wrote (RX_VERADIGM, ECONSULT_THEA). */
  allowExternal?: boolean;
  /** Writes the next version in place of writeNextVersion, when other items must change in the same transaction. */
  write?: (practiceId: string, current: Note, changes: Partial<Note>, now: Date) => Promise<Note>;
}

/**
 * The shape of every versioned note write: read the note, refuse a deleted one, run the prechecks,
 * refuse a stale `seenVersion` (undefined: the caller did not send one), build the changes from the
 * current note (builders throw their own 4xx), then write the next version conditionally.
 */
export async function updateNote(
  practiceId: string,
  noteId: string,
  seenVersion: number | undefined,
  build: (current: Note) => Partial<Note> | Promise<Partial<Note>>,
  options: VersionedUpdate = {},
): Promise<{ previous: Note; saved: Note }> {
  const current = await requireNote(practiceId, noteId);
  if (current.status === 'DELETED') throw new NotFoundError(NOTE_MESSAGES.deleted);
  if (!options.allowExternal && isExternalNoteType(current.noteType)) throw new ValidationError(PARTNER_MESSAGES.externalReadOnly);
  options.precheck?.(current);
  if (seenVersion !== undefined) assertVersion(current, seenVersion);
  const changes = await build(current);
  const saved = await (options.write ?? writeNextVersion)(practiceId, current, changes, options.now ?? new Date());
  return { previous: current, saved };
}

export interface PatientNotesRange {
  /** Inclusive ISO lower bound on eventTimestamp. */
  from?: string;
  /** Inclusive ISO upper bound on eventTimestamp. */
  to?: string;
  newestFirst?: boolean;
}

/** Every note of a patient in eventTimestamp order (one Query, paged through). */
export async function listPatientNotes(practiceId: string, patientId: string, range: PatientNotesRange = {}): Promise<Note[]> {
  const values: Record<string, string> = { ':pk': notesByPatientPartition(patientId) };
  let condition = 'gsi1pk = :pk';
  if (range.from && range.to) {
    condition += ' AND gsi1sk BETWEEN :from AND :to';
    values[':from'] = range.from;
    values[':to'] = `${range.to}\uffff`;
  } else if (range.from) {
    condition += ' AND gsi1sk >= :from';
    values[':from'] = range.from;
  } else if (range.to) {
    condition += ' AND gsi1sk <= :to';
    values[':to'] = `${range.to}\uffff`;
  }
  const items = await queryAll({
    IndexName: INDEXES.gsi1.indexName,
    KeyConditionExpression: condition,
    ExpressionAttributeValues: values,
    ScanIndexForward: !range.newestFirst,
  });
  return items.map(fromItem);
}

/** Whether every chart note of the practice carries the chart-notes index's keys (the backfill's marker is written). */
export function chartNotesIndexed(practiceId: string): Promise<boolean> {
  return markerWritten(practiceId, CHART_NOTE_KEYS_MARKER);
}

/**
 * A patient's notes but texts, newest first, from the chart-notes index (eventually consistent, as
 * the timeline reads), or null while older notes may still lack its keys: then the caller reads
 * every note of the patient.
 */
export async function listChartNotes(practiceId: string, patientId: string): Promise<Note[] | null> {
  if (!(await chartNotesIndexed(practiceId))) return null;
  const items = await queryAll({
    IndexName: INDEXES.gsi2.indexName,
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': chartNotesPartition(practiceId, patientId) },
    ScanIndexForward: false,
  });
  return items.map(fromItem);
}

/**
 * A patient's notes but texts, newest first unless `oldestFirst`: from the chart-notes index once
 * the practice's older notes have its keys, before then every note of the patient, kept to the rest.
 */
export async function listPatientNotesButTexts(practiceId: string, patientId: string, order: { oldestFirst?: boolean } = {}): Promise<Note[]> {
  const indexed = await listChartNotes(practiceId, patientId);
  const notes = indexed ?? (await listPatientNotes(practiceId, patientId, { newestFirst: true })).filter((n) => n.noteType !== 'SMS');
  return order.oldestFirst ? notes.reverse() : notes;
}
