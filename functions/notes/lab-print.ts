/**
 * GET /v1/notes/labs/print?id: the lab report PDF on the practice's letterhead. pdf-lib is large:
 * this module is reached only through a lazyRoute (lab-routes.ts), never the group's cold start.
 */
import {
  LAB_MESSAGES,
  labAbnormality,
  labPaymentNotice,
  labRangeText,
  labValueText,
  PAYMENT_STATUS_LABEL,
  type LabNoteData,
} from '../../shared/labs/lab-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { createLetterDocument } from '../lib/pdf/letter-document.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { auditNote, requirePatient } from '../core/notes/note-common.js';
import { requireNote } from '../data/notes/note-repository.js';

const day = (iso: string | undefined) => (iso ? new Date(iso).toISOString().slice(0, 10) : '');
const FLAG_TEXT = { high: 'H', low: 'L', abnormal: 'A' } as const;

export async function printLab(auth: AuthContext, noteId: string): Promise<{ fileName: string; contentType: 'application/pdf'; base64: string }> {
  const note = await requireNote(auth.practiceId, noteId);
  if (note.status === 'DELETED') throw new NotFoundError('Note not found');
  if (note.noteType !== 'LAB') throw new ValidationError(LAB_MESSAGES.notLab);
  const data = note.data as LabNoteData;
  const patient = note.patientId ? await requirePatient(auth.practiceId, note.patientId) : null;
  const practice = await getPractice(auth.practiceId);
  const doc = await createLetterDocument(
    { practiceName: practice?.practiceName ?? '', phoneNumber: practice?.phoneNumber ?? null, base64Logo: practice?.base64Logo ?? null },
    { margins: 'print', title: 'Lab report' },
  );
  doc.heading('Lab report');
  doc.fields([
    ['Patient', patient ? fullName(patient) : ''],
    ['Date of birth', patient?.dob ?? ''],
    ['Ordering provider', data.orderingProvider?.name ?? note.author.name],
    ['Ordered from', data.orderedFrom ?? ''],
    ['Requisition', data.labReferenceId ?? ''],
    ['Status', data.orderStatus ?? 'not ordered'],
    ['Collected', day(data.collectedAt)],
    ['Payment', data.paymentStatus ? PAYMENT_STATUS_LABEL[data.paymentStatus] : ''],
  ]);
  const paymentNotice = labPaymentNotice(data.paymentStatus);
  if (paymentNotice) doc.text(paymentNotice, { bold: true });
  const results = data.results ?? [];
  if (results.length === 0) {
    doc.space(8);
    doc.text('No results have been received yet.', { muted: true });
  }
  const panels = [...new Set(results.map((r) => r.panel ?? ''))];
  for (const panel of panels) {
    doc.space(10);
    if (panel) doc.text(panel, { bold: true, size: 12 });
    doc.table(
      [
        { header: 'Test', width: 0.36 },
        { header: 'Result', width: 0.2 },
        { header: 'Flag', width: 0.08 },
        { header: 'Reference range', width: 0.2 },
        { header: 'Issued', width: 0.16 },
      ],
      results
        .filter((r) => (r.panel ?? '') === panel)
        .map((r) => {
          const flag = labAbnormality(r);
          return { cells: [r.text, labValueText(r), flag ? FLAG_TEXT[flag] : '', labRangeText(r), day(r.issued)], flagged: flag !== null };
        }),
    );
  }
  doc.space(12);
  doc.text('Values marked H (high), L (low) or A (abnormal) are outside the reference range.', { muted: true, size: 9 });
  const bytes = await doc.save();
  await auditNote(auth, 'read', note);
  return { fileName: `lab-report-${note.noteId}.pdf`, contentType: 'application/pdf', base64: Buffer.from(bytes).toString('base64') };
}
