import { fileExtension, safeFileName, uploadError } from '../../../../shared/notes/files.js';
import { broughtInElsewhere } from '../import-comms.js';
import { planLabDocument } from '../import-labs.js';
import { nameOfRef, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { day, decode, text } from './read.js';

const NOTE_TYPES_KEPT = new Set(['NOTE', 'DOCUMENT', 'PHONE_CALL', 'EMAIL', 'FAX', 'FORM', 'PARTNER', 'ECONSULT_THEA']);
/** Notes the export also writes as other resources: brought in through those, not twice. */
const NOTE_TYPES_ELSEWHERE = new Set(['VITALS', 'LAB', 'RX', 'RX_DOSESPOT', 'RX_VERADIGM', 'SALES', 'SMS', 'SMS_LOG']);

/** Tidewell's export opens a note's plain text with its subject, which the note keeps apart: taken off, or every move would add it again. */
export const withoutSubjectLine = (text: string, subject: unknown) =>
  typeof subject === 'string' && subject && text.startsWith(`Subject: ${subject}`) ? text.slice(`Subject: ${subject}`.length).replace(/^\n{1,2}/, '') : text;

/** Who wrote a document at the source (its first author, else who authenticated it). */
const authorOf = (r: Json, bundle: BundleContext) => nameOfRef((r.author as Json[] | undefined)?.[0] ?? r.authenticator, bundle);

/**
 * A file carried inside the bundle (an attachment's base64 `data`) becomes a signed document note
 * holding it, under the same rules as an upload; one that only links to its binary is left out.
 */
function planFile(r: Json, title: string, author?: string): PlanOutcome {
  const summary = `File: ${title}`;
  const attachment = (r.content as Json[] | undefined)?.map((c) => c.attachment as Json | undefined).find((a) => a?.data || a?.url);
  if (!attachment?.data) return { summary, reason: 'The file itself is not in the bundle' };
  const name = fileNameOf(String(attachment.title ?? r.description ?? 'file'), attachment.contentType);
  const bytes = Buffer.from(String(attachment.data), 'base64');
  const problem = uploadError(name, bytes.length);
  if (problem) return { summary, reason: problem };
  const at = r.context?.period?.start ?? r.date ?? attachment.creation ?? new Date().toISOString();
  const related = r.context?.related?.find((x: Json) => typeof x?.reference === 'string')?.reference as string | undefined;
  return {
    summary: `File: ${name}`,
    planned: { kind: 'file', at, name, contentType: String(attachment.contentType ?? 'application/octet-stream'), bytes, related, author },
  };
}

const EXTENSION_OF: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/tiff': 'tiff',
  'text/plain': 'txt',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/rtf': 'rtf',
};

/** A stored file's name: the title as other systems write it (any length), shortened as every store can keep it, with its type's extension. */
export function fileNameOf(title: string, contentType: unknown): string {
  const ext =
    EXTENSION_OF[
      String(contentType ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase()
    ];
  const named = ext && !fileExtension(title) ? `${title.trim()}.${ext}` : title;
  return safeFileName(named);
}

/**
 * A DocumentReference becomes a note (its plain text) or a document holding its file, unless what it
 * records comes in through another resource (a call, a text, vitals, a prescription, a lab report).
 */
export function planDocument(r: Json, bundle: BundleContext): PlanOutcome {
  const typeText = r.type?.text;
  const plain = (r.content as Json[] | undefined)?.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/plain'))?.attachment;
  const html = (r.content as Json[] | undefined)?.find((c) => String(c.attachment?.contentType ?? '').startsWith('text/html'))?.attachment;
  const title = r.description ?? text(r.type) ?? 'Document';
  const through = broughtInElsewhere(r, bundle.comms);
  if (through) return { summary: `Note: ${title}`, reason: through };
  if (r.status === 'entered-in-error' || r.docStatus === 'entered-in-error') return { summary: `Note: ${title}`, reason: 'The document was entered in error' };
  if (typeText === 'VITALS') return { summary: `Note: ${title}`, reason: 'Brought in through its vital signs' };
  if (typeText === 'SMS' || typeText === 'SMS_LOG') return { summary: `Note: ${title}`, reason: 'Brought in through its text message' };
  if (typeof typeText === 'string' && typeText.startsWith('RX')) return { summary: `Note: ${title}`, reason: 'Brought in through its prescription' };
  if (typeText === 'LAB') return planLabDocument(r, bundle.labs);
  if (NOTE_TYPES_ELSEWHERE.has(typeText)) return { summary: `Note: ${title}`, reason: 'Sales are not imported yet' };
  if (!plain?.data) return planFile(r, title, authorOf(r, bundle));
  const at = r.context?.period?.start ?? r.date ?? new Date().toISOString();
  return {
    summary: `Note: ${title} (${day(at)})`,
    planned: {
      kind: 'note',
      noteType: NOTE_TYPES_KEPT.has(typeText) ? typeText : 'DOCUMENT',
      status: r.docStatus === 'preliminary' ? 'DRAFT' : 'SIGNED',
      at,
      text: withoutSubjectLine(decode(plain) ?? '', r.description),
      formattedText: decode(html),
      subject: r.description,
      author: authorOf(r, bundle),
    },
  };
}
