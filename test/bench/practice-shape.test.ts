import { describe, expect, it } from 'vitest';
import { conversationFromItem, smsDataOf, type ConversationCounts } from '../../functions/data/messaging/messaging-repository.js';
import { fromItem as noteFromItem } from '../../functions/data/notes/note-repository.js';
import type { Item } from '../../functions/lib/table/item.js';
import { clinicalNoteItems, conversationItems, conversationSeeds, NOTES_ON_FIRST_PATIENT, PRACTICE_SHAPES, spread } from './practice-shape.js';
import { syntheticPatients } from './synthetic-patients.js';

const author = { userId: 'user-1', name: 'Dana Provider' };
const end = new Date('2026-11-30T17:00:00Z');

describe('the large practice’s shape', () => {
  it('is the issue’s ten years of a 20-provider group', () => {
    expect(PRACTICE_SHAPES.large).toEqual({ patients: 20_000, notes: 1_000_000, conversations: 200_000, texts: 2_000_000 });
  });

  it('gives a few patients hundreds of notes and most a few dozen, adding up to the total', () => {
    const counts = spread(PRACTICE_SHAPES.large.notes, PRACTICE_SHAPES.large.patients, 42, NOTES_ON_FIRST_PATIENT);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(counts[0]).toBe(200);
    const sorted = [...counts].sort((a, b) => a - b);
    const median = sorted[sorted.length / 2];
    expect(median).toBeGreaterThan(10);
    expect(median).toBeLessThan(50);
    expect(counts.filter((c) => c >= 300).length).toBeGreaterThan(20);
    expect(counts.filter((c) => c >= 300).length).toBeLessThan(2_000);
    expect(spread(1_000, 100, 7)).toEqual(spread(1_000, 100, 7));
    expect(spread(1_000, 100, 7)).not.toEqual(spread(1_000, 100, 8));
  });
});

describe('the items it writes', () => {
  const patients = syntheticPatients(4);
  const shape = { patients: 4, notes: 40, conversations: 8, texts: 60 };
  const all = (batches: Iterable<Item[]>) => {
    const items = [...batches];
    expect(items.every((b) => b.length <= 25)).toBe(true);
    return items.flat();
  };

  it('are signed notes the chart timeline finds by patient, newest by their time key', () => {
    const items = all(clinicalNoteItems('practice-1', patients, shape, author, end));
    expect(items).toHaveLength(40);
    for (const item of items) {
      const note = noteFromItem(item);
      expect(note).toMatchObject({ noteType: 'NOTE', status: 'SIGNED', author, noteVersion: 1 });
      expect(item.gsi1pk).toBe(`NOTES#${note.patientId}`);
      expect(item.gsi1sk).toBe(`${note.eventTimestamp}#${note.noteId}`);
      expect(Date.parse(note.eventTimestamp)).toBeLessThanOrEqual(end.getTime());
    }
    expect(items.filter((i) => i.patientId === patients[0].id)).toHaveLength(40 >= NOTES_ON_FIRST_PATIENT ? NOTES_ON_FIRST_PATIENT : 40);
    expect(all(clinicalNoteItems('practice-1', patients, shape, author, end))).toEqual(items);
  });

  it('are texts in each phone’s history and conversations the hub lists, counted', () => {
    const seeds = conversationSeeds(patients, shape);
    expect(seeds).toHaveLength(8);
    expect(new Set(seeds.map((s) => s.conversationId)).size).toBe(8);
    const counts: ConversationCounts = { all: 0, unread: 0, read: 0, archived: 0, unreadMessages: 0 };
    const names = new Map(patients.map((p) => [p.id, `${p.firstName} ${p.lastName}`]));
    const items = all(conversationItems('practice-1', seeds, names, shape, author, end, counts));
    const texts = items.filter((i) => String(i.sk).startsWith('NOTE#'));
    const conversations = items.filter((i) => String(i.sk).startsWith('SMSCONV#'));
    expect(texts.length).toBeGreaterThanOrEqual(60);
    expect(conversations).toHaveLength(8);
    expect(counts).toEqual({ all: 8, unread: 0, read: 8, archived: 0, unreadMessages: 0 });
    for (const item of texts) {
      const note = noteFromItem(item);
      const data = smsDataOf(note);
      expect(note.noteType).toBe('SMS');
      expect(item.gsi2pk).toBe(`SMS#${data.patientPhoneNumber}`);
      expect(seeds.some((s) => s.conversationId === data.conversationId && s.patientId === note.patientId)).toBe(true);
    }
    for (const item of conversations) {
      const c = conversationFromItem(item);
      expect(item.gsi1pk).toBe('SMSCONV');
      expect(item.gsi2pk).toBe('SMSCONV#READ');
      const last = texts.filter((t) => (t.data as { conversationId: string }).conversationId === c.conversationId).map(noteFromItem);
      const newest = last.sort((a, b) => a.eventTimestamp.localeCompare(b.eventTimestamp)).at(-1)!;
      expect(c.lastMessage?.messageId).toBe(newest.noteId);
      expect(c.patientNames).toEqual([names.get(c.patientIds[0])]);
    }
  });
});
