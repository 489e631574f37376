/** The prescription PDF route of the notes group: pdf-lib is large, so this loads with its first request (handler.ts). */
import { NoteIdParams, type Note } from '../../shared/notes/note-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import { formatPhone } from '../../shared/patients/phone.js';
import { formatCents } from '../../shared/sales/sales-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { route } from '../lib/http/group-handler.js';
import { createLetterDocument } from '../lib/pdf/letter-document.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { assertNotDeleted, auditNote } from '../core/notes/note-common.js';
import { requireNote } from '../data/notes/note-repository.js';

export const RX_PRINT_MESSAGES = {
  notRx: 'Only a prescription can be printed as a prescription.',
  incomplete: 'Save the prescription before printing it.',
} as const;

const show = (v: unknown): string => (v === undefined || v === null || v === '' ? '—' : String(v));

function dob(iso: string | undefined): string {
  if (!iso) return '—';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
}

/** A Letter PDF on the practice's letterhead (print margins): patient, prescriber, medication and the Rx fields. */
export async function prescriptionPdf(auth: AuthContext, noteId: string): Promise<{ fileName: string; contentType: 'application/pdf'; base64: string }> {
  const note: Note = await requireNote(auth.practiceId, noteId);
  assertNotDeleted(note);
  if (note.noteType !== 'RX') throw new ValidationError(RX_PRINT_MESSAGES.notRx);
  const data = note.data;
  if (!data.medicationName || !note.patientId) throw new ValidationError(RX_PRINT_MESSAGES.incomplete);
  const [practice, patient] = await Promise.all([getPractice(auth.practiceId), getPatient(auth.practiceId, note.patientId)]);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const doc = await createLetterDocument(
    {
      practiceName: practice?.practiceName ?? 'Practice',
      phoneNumber: practice?.phoneNumber ? formatPhone(practice.phoneNumber) : null,
      base64Logo: practice?.base64Logo ?? null,
    },
    { margins: 'print', title: `Prescription ${show(data.medicationName)}` },
  );
  doc.heading('Prescription');
  doc.text(
    note.signed
      ? `Signed ${new Date(note.signed).toLocaleDateString('en-US', { timeZone: 'UTC' })} by ${note.signedBy?.name ?? note.author.name}`
      : 'Not signed yet (draft)',
    { muted: true },
  );
  doc.space(8);
  const address = patient.address
    ? [patient.address.line1, patient.address.line2, [patient.address.city, patient.address.state, patient.address.zip].filter(Boolean).join(' ')]
        .filter(Boolean)
        .join(', ')
    : '';
  doc.fields([
    ['Patient', fullName(patient)],
    ['Date of birth', dob(patient.dob)],
    ['Address', show(address)],
    ['Phone', show(formatPhone(patient.primaryPhoneNumber))],
  ]);
  doc.rule();
  doc.fields([
    ['Prescriber', show(data.providerName)],
    ['NPI', show(data.providerNpi)],
    ...(note.onBehalfOf ? ([['Written on behalf of the prescriber by', note.author.name]] as [string, string][]) : []),
  ]);
  doc.rule();
  doc.fields([
    ['Medication', show(data.medicationName)],
    ['NDC', show(data.ndcNumber)],
    ['Quantity', show(data.quantityPrescribed)],
    ['Days of treatment', show(data.daysOfTreatment)],
    ['Refills', show(data.numberOfRefills)],
    ['Frequency', show(data.frequency)],
    ['Instructions', show(data.instructions)],
    ['Dispense as written', data.daw ? 'Yes' : 'No'],
    ['Date prescribed', show(data.datePrescribed)],
    ['Date fulfilled', show(data.dateFulfilled)],
    ['Use by', show(data.useByDate)],
    ['Lot', [data.lotNumber, data.lotExpiration ? `expires ${String(data.lotExpiration)}` : ''].filter(Boolean).join(', ') || '—'],
    ['Price for the patient', typeof data.priceForPatient === 'number' ? formatCents(data.priceForPatient) : '—'],
  ]);
  const bytes = await doc.save();
  await auditNote(auth, 'read', note);
  const safe = String(data.medicationName)
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return { fileName: `prescription-${safe}.pdf`, contentType: 'application/pdf', base64: Buffer.from(bytes).toString('base64') };
}

export const RX_PRINT_ROUTE = route({ params: NoteIdParams, run: ({ auth, params }) => prescriptionPdf(auth, params.noteId) });
