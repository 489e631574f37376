import type { Note, NoteFile } from '../../../shared/notes/note-schema.js';
import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type FhirResource } from './fhir-core.js';
import type { ChartMapper, ChartSource, MapContext } from './model.js';

/** LOINC document types of Tidewell's notes; every other kind of note is a plain clinical note. */
const DOC_TYPES: Partial<Record<Note['noteType'], { code: string; display: string }>> = {
  NOTE: { code: '11506-3', display: 'Progress note' },
  LAB: { code: '11502-2', display: 'Laboratory report' },
  RX: { code: '57833-6', display: 'Prescription for medication' },
  RX_DOSESPOT: { code: '57833-6', display: 'Prescription for medication' },
  RX_VERADIGM: { code: '57833-6', display: 'Prescription for medication' },
  ECONSULT_THEA: { code: '11488-4', display: 'Consult note' },
};
const GENERIC = { code: '34109-9', display: 'Note' };
const CLINICAL_NOTE = [{ coding: [{ system: SYSTEMS.usCoreDocumentCategory, code: 'clinical-note', display: 'Clinical Note' }] }];
const DOC_STATUS: Partial<Record<Note['status'], string>> = { DRAFT: 'preliminary', WRITTEN: 'preliminary', SIGNED: 'final', ADDENDED: 'amended' };
/** The note types exported as something else (texts are Communications). */
const NOT_DOCUMENTS = new Set<Note['noteType']>(['SMS', 'STICKY', 'COPILOT_CHAT']);

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** What a note says as plain text, addenda included; a note without text still says what it is. */
export function noteText(note: Note): string {
  const d = note.data;
  const parts = [d.subject ? `Subject: ${d.subject}` : '', d.text ?? ''];
  for (const a of d.addenda ?? []) parts.push(`Addendum by ${a.author.name} (${a.timestamp}): ${a.text}`);
  const text = parts.filter(Boolean).join('\n\n');
  return text || `${(DOC_TYPES[note.noteType] ?? GENERIC).display} (${note.noteType})`;
}

export const noteDocumentId = (practiceId: string, noteId: string) => stableUuid('DocumentReference', practiceId, 'note', noteId);

function noteDocument(src: ChartSource, ctx: MapContext, note: Note): FhirResource {
  const type = DOC_TYPES[note.noteType] ?? GENERIC;
  const author = ctx.practitioner(note.author);
  return clean({
    resourceType: 'DocumentReference',
    id: noteDocumentId(src.practiceId, note.noteId),
    identifier: [sourceIdentifier(src.practiceId, 'note', note.noteId)],
    status: 'current',
    docStatus: DOC_STATUS[note.status] ?? 'final',
    type: { coding: [{ system: SYSTEMS.loinc, ...type }], text: note.noteType },
    category: CLINICAL_NOTE,
    subject: ctx.patientRef,
    date: fhirInstant(note.timestamp),
    author: author ? [author] : [],
    authenticator: note.signedBy ? ctx.practitioner(note.signedBy) : undefined,
    description: note.data.subject,
    securityLabel: note.hidden ? [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' }] }] : [],
    content: [
      { attachment: { contentType: 'text/plain; charset=utf-8', data: base64(noteText(note)), creation: fhirInstant(note.createdAt) } },
      ...(note.data.formattedText ? [{ attachment: { contentType: 'text/html; charset=utf-8', data: base64(note.data.formattedText) } }] : []),
    ],
    context: { period: { start: fhirInstant(note.eventTimestamp) } },
  });
}

function fileDocument(src: ChartSource, ctx: MapContext, note: Note, file: NoteFile, index: number): FhirResource {
  const author = ctx.practitioner(note.author);
  return clean({
    resourceType: 'DocumentReference',
    id: stableUuid('DocumentReference', src.practiceId, 'file', note.noteId, file.key),
    identifier: [sourceIdentifier(src.practiceId, 'file', `${note.noteId}/${index}`)],
    status: 'current',
    type: { coding: [{ system: SYSTEMS.loinc, ...GENERIC }], text: 'File' },
    category: CLINICAL_NOTE,
    subject: ctx.patientRef,
    date: fhirInstant(note.timestamp),
    author: author ? [author] : [],
    description: file.name,
    content: [
      {
        attachment: {
          contentType: file.contentType || 'application/octet-stream',
          url: src.filePaths.get(file.key),
          size: file.size,
          title: file.name,
          creation: fhirInstant(note.createdAt),
        },
      },
    ],
    context: { related: [{ reference: `urn:uuid:${noteDocumentId(src.practiceId, note.noteId)}` }], period: { start: fhirInstant(note.eventTimestamp) } },
  });
}

/** Every note as a DocumentReference with its text attached, and every file on it as one more pointing at its binary in the zip. */
export const documents: ChartMapper = {
  kind: 'note',
  map: (src, ctx) =>
    src.notes
      .filter((n) => !NOT_DOCUMENTS.has(n.noteType))
      .flatMap((n) => [noteDocument(src, ctx, n), ...n.files.map((f, i) => fileDocument(src, ctx, n, f, i))]),
};
