import { RX_MESSAGES } from '../../shared/notes/rx.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { listSection } from '../data/chart/chart-repository.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError } from '../lib/errors.js';
import { getInventoryItem, stockTakenEntry, takeFromStock } from '../data/inventory/inventory-repository.js';
import { personOf } from '../core/notes/note-common.js';
import { staleNoteVersion, writeNoteWith, type CancellationReasons, type TransactItem } from '../data/notes/note-at-version.js';
import {
  deleteRxRestock,
  getRxRestock,
  removedMedications,
  removeMedications,
  restoreMedications,
  storedMedications,
} from '../data/rx/prescription-medications.js';

/** DynamoDB's limit of 100 items in one TransactWriteItems call: the note, the stock a restore takes back (3), and two writes per medication. */
const MAX_MEDICATIONS = 48;

/**
 * The chart medications a prescription note added: an in-house RX names its medication
 * (data.medicationId); a DoseSpot prescription's medication carries the note's id. Both are found
 * by the noteId link, so a medication an older sync wrote without the name on the note goes too.
 */
async function medicationsOf(practiceId: string, note: Note): Promise<string[]> {
  if (!note.patientId) return [];
  const linked = (await listSection(practiceId, note.patientId, 'medications'))
    .filter((m) => m.noteId === note.noteId || m.rxId === note.noteId)
    .map((m) => m.ident);
  const named = typeof note.data.medicationId === 'string' ? [note.data.medicationId] : [];
  return [...new Set([...named, ...linked])];
}

/**
 * Deletes a prescription note and, in the same transaction, the chart medications it added (kept
 * beside the note for a restore): if the note changed meanwhile nothing is written (409 with the
 * stored version); a medication already removed from the card is simply not there to remove.
 */
export async function writeDeletedPrescription(auth: AuthContext, current: Note, changes: Partial<Note>, now: Date): Promise<Note> {
  const practiceId = auth.practiceId;
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  const patientId = current.patientId;
  const idents = patientId ? (await medicationsOf(practiceId, current)).slice(0, MAX_MEDICATIONS) : [];
  const stored = patientId ? await storedMedications(practiceId, patientId, idents) : [];
  await transactNoteWith(practiceId, current, next, removeMedications(practiceId, current.noteId, stored, now.toISOString()));
  for (const item of stored) await writeAudit(auth, { action: 'delete', entity: 'medication', entityId: String(item.ident), patientId: patientId! });
  return next;
}

/**
 * The stock a restored prescription takes out again, when its quantity was put back on delete
 * (RX_RESTOCK marker): the decrement (never below zero), its restock entry and the marker's removal,
 * for the restore's transaction. Refused, saying why, when that stock is no longer there.
 */
async function stockTakenBack(
  auth: AuthContext,
  note: Note,
  now: Date,
): Promise<{ inventoryId: string; items: TransactItem[]; refusal: (known?: number) => Promise<ConflictError> } | null> {
  const practiceId = auth.practiceId;
  const marker = await getRxRestock(practiceId, note.noteId);
  if (!marker) return null;
  const name = String(note.data.medicationName ?? 'medication');
  const inStock = async () => (await getInventoryItem(practiceId, marker.inventoryId))?.quantityInStock ?? 0;
  const refusal = async (known?: number) => {
    const quantityInStock = known ?? (await inStock());
    return new ConflictError(RX_MESSAGES.restoreStockGone(name, marker.quantity, quantityInStock), { quantityInStock });
  };
  const left = await inStock();
  if (left < marker.quantity) throw await refusal(left);
  return {
    inventoryId: marker.inventoryId,
    refusal,
    items: [
      takeFromStock(practiceId, marker.inventoryId, marker.quantity, now),
      stockTakenEntry(practiceId, {
        inventoryId: marker.inventoryId,
        quantity: marker.quantity,
        reasonForEditing: RX_MESSAGES.restoreReason,
        by: await personOf(auth),
        now,
        noteId: note.noteId,
      }),
      deleteRxRestock(practiceId, note.noteId),
    ],
  };
}

/**
 * Restoring a deleted prescription puts back the chart medications its delete removed and, when
 * its quantity was restocked, takes that quantity out of the inventory again: one transaction.
 */
export async function writeRestoredPrescription(auth: AuthContext, current: Note, changes: Partial<Note>, now: Date): Promise<Note> {
  const practiceId = auth.practiceId;
  const next: Note = { ...current, ...changes, noteVersion: current.noteVersion + 1, timestamp: now.toISOString() };
  const kept = await removedMedications(practiceId, current.noteId, MAX_MEDICATIONS);
  const stock = await stockTakenBack(auth, current, now);
  await transactNoteWith(
    practiceId,
    current,
    next,
    [
      // Right after the note, so a cancellation reason at index 1 is the stock that ran out meanwhile.
      ...(stock?.items ?? []),
      ...restoreMedications(practiceId, kept),
    ],
    stock ? async (reasons) => (reasons[1]?.Code === 'ConditionalCheckFailed' ? stock.refusal() : undefined) : undefined,
  );
  for (const item of kept) await writeAudit(auth, { action: 'restore', entity: 'medication', entityId: String(item.ident), patientId: String(item.patientId) });
  if (stock) await writeAudit(auth, { action: 'update', entity: 'inventory-item', entityId: stock.inventoryId });
  return next;
}

/**
 * The note's next version and `others` in one transaction; a note changed meanwhile is a 409 with
 * the stored version, and `refuse` names what else a cancellation may mean.
 */
async function transactNoteWith(
  practiceId: string,
  current: Note,
  next: Note,
  others: TransactItem[],
  refuse?: (reasons: CancellationReasons) => Promise<Error | undefined>,
): Promise<void> {
  try {
    await writeNoteWith(practiceId, next, current.noteVersion, others);
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: CancellationReasons };
    if (e?.name !== 'TransactionCanceledException') throw error;
    const reasons = e.CancellationReasons ?? [];
    if (reasons[0]?.Code !== 'ConditionalCheckFailed') throw (await refuse?.(reasons)) ?? error;
    throw await staleNoteVersion(practiceId, current.noteId);
  }
}
