import { randomUUID } from 'node:crypto';
import type { Note, NoteData, SignNoteBody } from '../../shared/notes/note-schema.js';
import { canBePrescriber, isPobType, isPrescribable, maySignPrescription, RX_MESSAGES } from '../../shared/notes/rx.js';
import { RxInput } from '../../shared/notes/rx-schema.js';
import { keptOverride } from '../../shared/chart/drug-safety.js';
import { drugOfItem } from '../core/notes/rx-drug.js';
import { ePrescribeProblems, PATIENT_PROBLEMS_TITLE } from '../../shared/notes/rx-patient.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, ForbiddenError, ValidationError } from '../lib/errors.js';
import { zodFieldErrors } from '../lib/http/zod-errors.js';
import { putNewMedication } from '../data/rx/prescription-medications.js';
import { getInventoryItem, stockTakenEntry, takeFromStock } from '../data/inventory/inventory-repository.js';
import { dayIn, mmDdYyyy, practiceTimeZone } from '../data/calendar/practice-day.js';
import { getUser, type PracticeUser } from '../data/users/user-repository.js';
import { draftAssigned, draftSigned } from './draft-notifications.js';
import { assertSavable, auditNote, personOf, requireSignableNote } from '../core/notes/note-common.js';
import { staleNoteVersion, writeNoteWith } from '../data/notes/note-at-version.js';

/**
 * In-house prescriptions (RX). The window sends the inventory item, the prescriber and the Rx
 * fields; the medication, NDC and prices always come from the inventory item and the prescriber's
 * name and NPI from the practice's users, never from the request.
 */
export async function prepareRx(practiceId: string, data: NoteData, on = new Date(), today?: string): Promise<NoteData> {
  const parsed = RxInput.safeParse(data);
  if (!parsed.success) {
    const fieldErrors = zodFieldErrors(parsed.error, 'data');
    throw new ValidationError(Object.values(fieldErrors)[0]!, fieldErrors);
  }
  const input = parsed.data;
  const item = await getInventoryItem(practiceId, input.inventoryId);
  if (!item || !isPrescribable(item, on)) throw new ValidationError(RX_MESSAGES.inventoryUnavailable, { inventoryId: RX_MESSAGES.inventoryUnavailable });
  const prescriber = await getUser(practiceId, input.providerId);
  if (!prescriber || !canBePrescriber(prescriber)) throw new ValidationError(RX_MESSAGES.prescriberInvalid, { providerId: RX_MESSAGES.prescriberInvalid });
  const q = input.quantityPrescribed;
  return {
    ...(data.approval ? { approval: data.approval } : {}),
    ...keptOverride(data.safetyOverride),
    ...input,
    datePrescribed: input.datePrescribed ?? mmDdYyyy(today ?? dayIn(on, await practiceTimeZone(practiceId))),
    medicationName: [item.brandName || item.genericName, item.strength, item.form].filter(Boolean).join(' '),
    genericName: item.genericName,
    strength: item.strength ?? null,
    form: item.form ?? null,
    ndcNumber: item.ndcNumber ?? null,
    code: { type: 'NDC', value: item.ndcNumber ?? '' },
    expiration: input.expiration ?? item.expirationDate ?? undefined,
    costToDoctor: item.costPerUnit * q,
    priceForPatient: item.finalPrice * q,
    providerName: prescriber.name,
    providerNpi: prescriber.npiNumber,
    isExternalPrescription: false,
    daysSupply: input.daysOfTreatment,
    routeOfAdministration: 'OR',
    transmissionMethod: 'History',
  };
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Spec chart-data §3: start today (`today`, the practice's day), end = start + daysOfTreatment, route OR, transmission method History, linked to the note. */
export function medicationFromRx(patientId: string, noteId: string, data: NoteData, now: Date, today = now.toISOString().slice(0, 10)) {
  const start = today;
  const days = Number(data.daysOfTreatment);
  const at = now.toISOString();
  return {
    ident: randomUUID(),
    patientId,
    productName: String(data.medicationName),
    strength: (data.strength as string | null) ?? undefined,
    dosageForm: (data.form as string | null) ?? undefined,
    sigText: [data.instructions, data.frequency].filter(Boolean).join(', '),
    status: 'Active',
    start,
    end: addDays(start, days),
    rxId: noteId,
    noteId,
    code: data.ndcNumber ? { type: 'NDC', value: String(data.ndcNumber) } : undefined,
    daysSupply: days,
    refills: Number(data.numberOfRefills),
    quantity: Number(data.quantityPrescribed),
    routeOfAdministration: 'OR',
    transmissionMethod: 'History',
    daw: data.daw ? 1 : 0,
    pinned: false,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

async function requireSigner(auth: AuthContext): Promise<PracticeUser> {
  const user = await getUser(auth.practiceId, auth.userId);
  if (!user || !maySignPrescription(user)) throw new ForbiddenError(RX_MESSAGES.cannotPrescribe);
  return user;
}

/**
 * Signs a prescription. Spec shell §6: a StaffUser cannot prescribe; a POB type signs on behalf of
 * the prescriber it names; a POBAllReview's prescription goes to that provider for approval instead
 * (nothing is dispensed until the provider signs it). Signing dispenses: the signed note, the stock
 * decrement (never below zero), its restock entry and the chart medication are ONE transaction.
 */
export async function signRxNote(auth: AuthContext, noteId: string, body: SignNoteBody, now = new Date()): Promise<Note> {
  const current = await requireSignableNote(auth.practiceId, noteId, body.noteVersion);
  const signer = await requireSigner(auth);
  const changed: Note = {
    ...current,
    ...(body.patientId !== undefined ? { patientId: body.patientId } : {}),
    ...(body.eventTimestamp !== undefined ? { eventTimestamp: new Date(body.eventTimestamp).toISOString() } : {}),
  };
  const today = dayIn(now, await practiceTimeZone(auth.practiceId));
  changed.data = await prepareRx(auth.practiceId, body.data ?? current.data, now, today);
  const patient = await assertSavable(auth.practiceId, changed, now);
  const problems = ePrescribeProblems(patient as unknown as Record<string, unknown>);
  if (problems.length) throw new ValidationError(`${PATIENT_PROBLEMS_TITLE} ${problems.join('; ')}`, { patientId: problems.join('; ') });
  const providerId = String(changed.data.providerId);
  const pending = (current.data.approval as { status?: string } | undefined)?.status === 'PENDING';
  const person = await personOf(auth);

  if (pending && auth.userId !== providerId) {
    throw new ForbiddenError(signer.veradigmUserType === 'POBAllReview' ? RX_MESSAGES.awaitingApproval : RX_MESSAGES.approvalOnlyProvider);
  }
  if (isPobType(signer.veradigmUserType)) {
    if (providerId === auth.userId) throw new ValidationError(RX_MESSAGES.onBehalfOfRequired, { providerId: RX_MESSAGES.onBehalfOfRequired });
    changed.onBehalfOf = providerId;
  }
  // Allergy and interaction checks: warnings need the signer's reason (422 lists them otherwise).
  const item = await getInventoryItem(auth.practiceId, String(changed.data.inventoryId));
  const { requireSafetyOverride, auditSafetyOverride } = await import('../lib/drug-safety/check.js');
  const override = item
    ? await requireSafetyOverride(auth, changed.patientId!, [drugOfItem(item)], (body.data ?? current.data).safetyOverride, person, now)
    : null;
  if (override) changed.data = { ...changed.data, safetyOverride: override };
  else delete changed.data.safetyOverride;
  if (signer.veradigmUserType === 'POBAllReview') {
    // Waits for the provider: kept as a draft with the request, and the draft goes to the provider's notifications.
    const waiting: Note = {
      ...changed,
      data: { ...changed.data, approval: { status: 'PENDING', requestedBy: person, requestedAt: now.toISOString() } },
      status: 'DRAFT',
      noteVersion: current.noteVersion + 1,
      timestamp: now.toISOString(),
    };
    await writeNoteWith(auth.practiceId, waiting, current.noteVersion).catch(async (error: { name?: string }) => {
      if (error?.name !== 'TransactionCanceledException') throw error;
      throw await staleNoteVersion(auth.practiceId, noteId);
    });
    await draftAssigned(auth, waiting, providerId);
    await auditNote(auth, 'update', waiting);
    if (override) await auditSafetyOverride(auth, noteId, waiting.patientId!, override);
    return waiting;
  }

  const approval = pending ? { ...(current.data.approval as object), status: 'APPROVED', approvedBy: person, approvedAt: now.toISOString() } : undefined;
  const medication = medicationFromRx(changed.patientId!, noteId, changed.data, now, today);
  const next: Note = {
    ...changed,
    data: { ...changed.data, ...(approval ? { approval } : {}), medicationId: medication.ident, dateFulfilled: changed.data.dateFulfilled ?? mmDdYyyy(today) },
    status: 'SIGNED',
    signed: now.toISOString(),
    author: person,
    signedBy: person,
    noteVersion: current.noteVersion + 1,
    timestamp: now.toISOString(),
  };
  const quantity = Number(next.data.quantityPrescribed);
  const inventoryId = String(next.data.inventoryId);
  try {
    await writeNoteWith(auth.practiceId, next, current.noteVersion, [
      takeFromStock(auth.practiceId, inventoryId, quantity, now),
      stockTakenEntry(auth.practiceId, { inventoryId, quantity, reasonForEditing: RX_MESSAGES.dispenseReason, by: person, now, noteId }),
      putNewMedication(auth.practiceId, medication),
    ]);
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] };
    if (e?.name !== 'TransactionCanceledException') throw error;
    const reasons = e.CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') throw await staleNoteVersion(auth.practiceId, noteId);
    if (reasons[1]?.Code === 'ConditionalCheckFailed') {
      const stock = await getInventoryItem(auth.practiceId, inventoryId);
      throw new ConflictError(RX_MESSAGES.notEnoughStock(String(next.data.medicationName), quantity), { quantityInStock: stock?.quantityInStock ?? 0 });
    }
    throw error;
  }
  await auditNote(auth, 'update', next);
  if (override) await auditSafetyOverride(auth, noteId, next.patientId!, override);
  await draftSigned(auth, next);
  return next;
}
