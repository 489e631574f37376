import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { addToConversationCounts, type ConversationCounts } from '../../functions/data/messaging/messaging-repository.js';
import { documentClient } from '../../functions/lib/table/client.js';
import { tableName } from '../../functions/lib/table/definition.js';
import type { Item } from '../../functions/lib/table/item.js';
import type { Patient } from '../../shared/patients/patient-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { clinicalNoteItems, conversationItems, conversationSeeds, type PracticeShape, type ShapeAuthor } from './practice-shape.js';

/** BatchWriteItem calls in flight at once: the local engine answers one at a time, so a few keep it busy without queueing. */
const WRITERS = 4;

export interface ShapeSeeded {
  notes: number;
  texts: number;
  conversations: number;
  seconds: number;
}

/** Writes every batch a generator yields, WRITERS at a time, retrying what the engine leaves unprocessed. */
async function writeAll(batches: Iterator<Item[]>, progress: (items: number) => void): Promise<number> {
  let written = 0;
  const writer = async () => {
    for (let next = batches.next(); !next.done; next = batches.next()) {
      let pending: { PutRequest: { Item: Item } }[] | undefined = next.value.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 2 ** attempt * 10)));
        const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = out.UnprocessedItems?.[tableName()] as typeof pending;
      }
      written += next.value.length;
      progress(written);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return written;
}

/**
 * Loads the notes, conversations and texts of a practice of `shape` onto its patients (already
 * loaded), and adds the conversations to the hub's counts. Prints progress every 100,000 items.
 */
export async function seedPracticeShape(
  practiceId: string,
  patients: readonly Patient[],
  shape: PracticeShape,
  author: ShapeAuthor,
  log: (line: string) => void,
  end = new Date('2026-11-30T17:00:00Z'),
): Promise<ShapeSeeded> {
  const start = performance.now();
  let reported = 0;
  const progress = (what: string) => (items: number) => {
    if (items - reported < 100_000) return;
    reported = items;
    log(`    ${what}: ${items.toLocaleString('en-US')} items in ${((performance.now() - start) / 1000).toFixed(0)} s`);
  };
  const notes = await writeAll(clinicalNoteItems(practiceId, patients, shape, author, end), progress('notes'));
  reported = 0;
  const seeds = conversationSeeds(patients, shape);
  const names = new Map(patients.map((p) => [p.id, fullName(p)]));
  const total: ConversationCounts = { all: 0, unread: 0, read: 0, archived: 0, unreadMessages: 0 };
  const textsAndConversations = await writeAll(conversationItems(practiceId, seeds, names, shape, author, end, total), progress('texts and conversations'));
  // Added to the practice's own conversations' counts, as each new conversation adds itself.
  await addToConversationCounts(practiceId, total);
  return { notes, texts: textsAndConversations - seeds.length, conversations: seeds.length, seconds: (performance.now() - start) / 1000 };
}
