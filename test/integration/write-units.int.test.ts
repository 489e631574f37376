import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_WRITTEN_HEADER, ITEMS_READ_HEADER, ITEMS_WRITTEN_HEADER, ROUND_TRIPS_HEADER, TABLE_MS_HEADER } from '../../functions/lib/table/read-meter.js';
import { api, patientAuditTrail, signIn } from '../support/local-stack.js';

/*
 * The draft autosave is the practice's most frequent write (every 5 s per open draft), so what one
 * save writes is counted by the data layer (x-tidewell-write-units) and held here. A later save of
 * a note of about 1 KB, as the load bench saves it, writes:
 *   the note, one conditional put of its item (2 units for 1-2 KB; no second copy of its body),
 *   its audit entry (1),
 *   the DRAFT notification's next version in one transaction, billed twice: the version (2), the
 *     previous version's flip (1), its change-log copy (1) and its by-person copy (2) = 12.
 */
const LATER_SAVE_WRITE_UNITS = 15;
/**
 * Billed again in the indexes (every one projected ALL): the note in two (4), the audit entry in
 * one (1), the notification version and its by-person copy in two each (8), the previous version's
 * flip moving its keys (2).
 */
const LATER_SAVE_INDEX_WRITE_UNITS = 15;
/** The note read for its version, the patient it is written for, the open DRAFT notification found by the note. */
const LATER_SAVE_ITEMS_READ = 3;
/**
 * The table calls a save waits on one after another: the note, its patient and its DRAFT
 * notification read together; the note's conditional put; the audit entry and the notification's
 * version written together.
 */
const LATER_SAVE_ROUND_TRIPS = 3;
/**
 * A text sent: the SMS note before the carrier (2) and with its outcome after (2), the conversation's
 * last message (1), the READ SMS notification of the send in one transaction (12), the audit entry (1).
 */
const TEXT_SENT_WRITE_UNITS = 18;
const TEXT_SENT_INDEX_WRITE_UNITS = 14;
/** The conversation, the practice's numbers, the conversation again as the send finds it, the patients' index, the phone's opt-out. */
const TEXT_SENT_ITEMS_READ = 5;
/**
 * The table calls a send waits on one after another: the conversation, the named patient and the
 * sender's name; the practice's numbers beside the patients who have the phone; the SMS note; its
 * outcome; the conversation's last message beside the phone's opt-out; the notification of the send
 * beside the audit entry.
 */
const TEXT_SENT_ROUND_TRIPS = 6;
const PRACTICE_PHONE = '+15415550100';

const run = Date.now().toString(36);
let provider: string;
let patientId: string;

/** The body the web's autosave sends for a visit note of about 1 KB (the load bench's): the version it saw, the text, the patient. */
const autosave = (noteVersion: number, n: number, extra = '') => ({
  noteVersion,
  data: { text: `Visit note ${n}${extra}`, formattedText: `<p>Visit note ${n}: ${'subjective and plan '.repeat(20)}</p>` },
  patientId,
});

async function save(
  noteId: string,
  body: unknown,
): Promise<{ noteVersion: number; written: number; indexWritten: number; read: number; roundTrips: number; tableMs: number; latencyMs: number }> {
  const started = performance.now();
  const res = await api(provider, 'POST', `/v1/notes/${noteId}`, body);
  const latencyMs = performance.now() - started;
  expect(res.status).toBe(200);
  return {
    noteVersion: res.body.noteVersion,
    written: Number(res.headers.get(ITEMS_WRITTEN_HEADER)),
    indexWritten: Number(res.headers.get(INDEX_WRITTEN_HEADER)),
    read: Number(res.headers.get(ITEMS_READ_HEADER)),
    roundTrips: Number(res.headers.get(ROUND_TRIPS_HEADER)),
    tableMs: Number(res.headers.get(TABLE_MS_HEADER)),
    latencyMs,
  };
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Wanda', lastName: `Writewell${run}`, gender: 'female', dob: '1979-03-03' });
  patientId = p.body.id;
});

describe('one draft autosave', () => {
  it('writes the note once, its audit entry and the draft notification version, within the budget', async () => {
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId })).body;
    const first = await save(note.noteId, autosave(1, 1));
    const later = await save(note.noteId, autosave(first.noteVersion, 2));
    expect(later.written).toBeGreaterThan(0);
    expect(later.written).toBeLessThanOrEqual(LATER_SAVE_WRITE_UNITS);
    expect(later.read).toBeLessThanOrEqual(LATER_SAVE_ITEMS_READ);
    expect(later.roundTrips).toBeGreaterThan(0);
    expect(later.roundTrips).toBeLessThanOrEqual(LATER_SAVE_ROUND_TRIPS);
    expect(later.indexWritten).toBeGreaterThan(0);
    expect(later.indexWritten).toBeLessThanOrEqual(LATER_SAVE_INDEX_WRITE_UNITS);
    // The time it waited on the table is part of its latency, never more (the load bench splits the two).
    expect(later.tableMs).toBeGreaterThan(0);
    expect(later.tableMs).toBeLessThan(later.latencyMs);

    // 4 KB more text costs the note's put 4 more units and nothing else: the body is written once per save.
    const longer = await save(note.noteId, autosave(later.noteVersion, 3, 'x'.repeat(4096)));
    expect(longer.written - later.written).toBe(4);
    // ... and 8 in the indexes: the note is in the patient's notes and in the chart's.
    expect(longer.indexWritten - later.indexWritten).toBe(8);

    // Nothing saved is lost for the units: every save is a version of the note, audited, and updates its one DRAFT notification.
    const stored = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(stored.body).toMatchObject({ noteVersion: longer.noteVersion, data: { text: `Visit note 3${'x'.repeat(4096)}` } });
    expect(longer.noteVersion).toBe(4);
    const updates = (await patientAuditTrail(patientId)).filter((e) => e.entity === 'NOTE' && e.entityId === note.noteId && e.action === 'update');
    expect(updates).toHaveLength(3);
    const drafts = await api(provider, 'GET', `/v1/notifications?notificationType=DRAFT&sourceId=${note.noteId}`);
    expect(drafts.body.notifications).toHaveLength(1);
    expect(drafts.body.notifications[0]).toMatchObject({ notificationVersion: 3, notificationStatus: 'UNREAD', data: { noteId: note.noteId, patientId } });
  });

  it('refuses a save over a stale version without writing the note', async () => {
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId })).body;
    const first = await save(note.noteId, autosave(1, 1));
    const stale = await api(provider, 'POST', `/v1/notes/${note.noteId}`, autosave(1, 2));
    expect(stale.status).toBe(409);
    expect(stale.body.noteVersion).toBe(first.noteVersion);
    expect(Number(stale.headers.get(ITEMS_WRITTEN_HEADER))).toBe(0);
  });
});

describe('one text sent', () => {
  it('writes the SMS note before and after the carrier, the conversation, the notification and the audit entry, within the budget', async () => {
    const phone = `+1503${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const c = await api(provider, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: PRACTICE_PHONE });
    expect(c.status).toBe(200);
    const id = c.body.conversation.conversationId as string;
    const send = (n: number) => api(provider, 'POST', `/v1/messaging/conversations/${id}/messages`, { text: `Your appointment is confirmed (${n})` });
    expect((await send(1)).status).toBe(201);
    const second = await send(2);
    expect(second.status).toBe(201);
    // The answer carries the conversation as the send left it, without reading it back.
    expect(second.body.conversation).toMatchObject({ conversationId: id, lastMessage: { messageId: second.body.message.messageId, deliveryStatus: 'SENT' } });
    expect(Number(second.headers.get(ITEMS_WRITTEN_HEADER))).toBeLessThanOrEqual(TEXT_SENT_WRITE_UNITS);
    expect(Number(second.headers.get(INDEX_WRITTEN_HEADER))).toBeGreaterThan(0);
    expect(Number(second.headers.get(INDEX_WRITTEN_HEADER))).toBeLessThanOrEqual(TEXT_SENT_INDEX_WRITE_UNITS);
    // The patients' index is kept in memory: a send that finds it behind (a patient written by
    // another test file, or loaded within a second of a write) first reads the changes or, once,
    // the whole list. The fewest of three sends is what a send itself reads.
    const more = [second, await send(3), await send(4)];
    expect(Math.min(...more.map((res) => Number(res.headers.get(ITEMS_READ_HEADER))))).toBeLessThanOrEqual(TEXT_SENT_ITEMS_READ);
    expect(Math.min(...more.map((res) => Number(res.headers.get(ROUND_TRIPS_HEADER))))).toBeLessThanOrEqual(TEXT_SENT_ROUND_TRIPS);
  });
});
