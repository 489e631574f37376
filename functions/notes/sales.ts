import { statusAfterSign } from '../../shared/notes/note-rules.js';
import type { Note, NoteData, NotePerson, SignNoteBody } from '../../shared/notes/note-schema.js';
import { keptOverride, type SafetyOverride } from '../../shared/chart/drug-safety.js';
import { drugOfItem } from '../core/notes/rx-drug.js';
import { SALES_MESSAGES, SalesData, saleTotals, type SaleLine } from '../../shared/sales/sales-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { parseOrThrow } from '../lib/http/zod-errors.js';
import { getChargeItem, getInventoryItem, getInventorySettings, stockTakenEntry, takeFromStock } from '../data/inventory/inventory-repository.js';

const SALE_STOCK_REASON = 'Sold on a sales note';
import { draftSigned } from './draft-notifications.js';
import { assertSavable, auditNote, personOf, requireSignableNote } from '../core/notes/note-common.js';
import { staleNoteVersion, writeNoteWith } from '../data/notes/note-at-version.js';

/**
 * A sale's lines priced from the catalog, never from the request: a charge item at its priceInCents,
 * an inventory item at its finalPrice; tax from the inventory settings; totals in cents.
 */
export async function priceSale(practiceId: string, data: NoteData): Promise<NoteData> {
  const { items } = parseOrThrow(SalesData, { items: Array.isArray(data.items) ? data.items : [] }, 'body');
  const lines: SaleLine[] = [];
  for (const line of items) {
    if (line.kind === 'charge') {
      const charge = await getChargeItem(practiceId, line.refId);
      if (!charge) throw new ValidationError(SALES_MESSAGES.unknownItem('A charge item'), { items: SALES_MESSAGES.unknownItem('A charge item') });
      lines.push({
        ...line,
        name: charge.name,
        code: charge.code,
        unitPriceInCents: charge.priceInCents,
        lineTotalInCents: charge.priceInCents * line.quantity,
      });
    } else {
      const stock = await getInventoryItem(practiceId, line.refId);
      if (!stock || stock.isHidden)
        throw new ValidationError(SALES_MESSAGES.unknownItem('An inventory item'), { items: SALES_MESSAGES.unknownItem('An inventory item') });
      const name = [stock.brandName || stock.genericName, stock.strength].filter(Boolean).join(' ');
      lines.push({ ...line, name, code: stock.ndcNumber ?? null, unitPriceInCents: stock.finalPrice, lineTotalInCents: stock.finalPrice * line.quantity });
    }
  }
  const settings = await getInventorySettings(practiceId);
  const { safetyOverride, ...rest } = data;
  return { ...rest, ...keptOverride(safetyOverride), items: lines, ...saleTotals(lines, settings.defaultSalesTaxPercentage) };
}

/** Units of each inventory item a sale takes. */
function stockTaken(lines: readonly SaleLine[]): Map<string, { quantity: number; name: string }> {
  const taken = new Map<string, { quantity: number; name: string }>();
  for (const l of lines) {
    if (l.kind !== 'inventory') continue;
    const prior = taken.get(l.refId);
    taken.set(l.refId, { quantity: (prior?.quantity ?? 0) + l.quantity, name: l.name });
  }
  return taken;
}

/**
 * Signs a sale: the signed note and the stock of each inventory item it sold change in ONE
 * transaction. Each stock decrement is conditioned on enough stock (never below zero) and the note
 * on the version read, so a second sign (or a racing one) moves no stock.
 */
export async function signSalesNote(auth: AuthContext, noteId: string, body: SignNoteBody, now = new Date()): Promise<Note> {
  const current = await requireSignableNote(auth.practiceId, noteId, body.noteVersion);
  const changed: Note = {
    ...current,
    ...(body.patientId !== undefined ? { patientId: body.patientId } : {}),
    ...(body.eventTimestamp !== undefined ? { eventTimestamp: new Date(body.eventTimestamp).toISOString() } : {}),
    ...(body.onBehalfOf !== undefined ? { onBehalfOf: body.onBehalfOf } : {}),
  };
  changed.data = await priceSale(auth.practiceId, body.data ?? current.data);
  await assertSavable(auth.practiceId, changed, now);
  const signer = await personOf(auth);
  // Allergy and interaction checks on the inventory items sold (charge items are services, not drugs).
  const override = changed.patientId ? await checkSaleDrugs(auth, changed, (body.data ?? current.data).safetyOverride, signer, now) : null;
  if (override) changed.data = { ...changed.data, safetyOverride: override };
  else delete changed.data.safetyOverride;
  const next: Note = {
    ...changed,
    status: statusAfterSign('SALES', current.status === 'HIDDEN' ? 'DRAFT' : current.status),
    signed: now.toISOString(),
    author: signer,
    signedBy: signer,
    noteVersion: current.noteVersion + 1,
    timestamp: now.toISOString(),
  };
  const taken = [...stockTaken(next.data.items as SaleLine[])];
  try {
    await writeNoteWith(auth.practiceId, next, current.noteVersion, [
      ...taken.map(([inventoryId, { quantity }]) => takeFromStock(auth.practiceId, inventoryId, quantity, now)),
      // After the decrements, so a cancellation reason's index still names the item that was short.
      ...taken.map(([inventoryId, { quantity }]) =>
        stockTakenEntry(auth.practiceId, { inventoryId, quantity, reasonForEditing: SALE_STOCK_REASON, by: signer, now, noteId }),
      ),
    ]);
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] };
    if (e?.name !== 'TransactionCanceledException') throw error;
    const reasons = e.CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') throw await staleNoteVersion(auth.practiceId, noteId);
    const short = reasons.findIndex((r, i) => i > 0 && i <= taken.length && r?.Code === 'ConditionalCheckFailed');
    if (short > 0) {
      const message = SALES_MESSAGES.notEnoughStock(taken[short - 1]![1].name);
      throw new ValidationError(message, { items: message });
    }
    throw error;
  }
  await auditNote(auth, 'update', next);
  if (override) await (await import('../lib/drug-safety/check.js')).auditSafetyOverride(auth, noteId, next.patientId!, override);
  await draftSigned(auth, next);
  return next;
}

async function checkSaleDrugs(auth: AuthContext, note: Note, sent: unknown, signer: NotePerson, now: Date): Promise<SafetyOverride | null> {
  const drugs = [];
  for (const line of note.data.items as SaleLine[]) {
    if (line.kind !== 'inventory') continue;
    const stock = await getInventoryItem(auth.practiceId, line.refId);
    if (stock) drugs.push(drugOfItem(stock));
  }
  if (drugs.length === 0) return null;
  const { requireSafetyOverride } = await import('../lib/drug-safety/check.js');
  return requireSafetyOverride(auth, note.patientId!, drugs, sent, signer, now);
}
