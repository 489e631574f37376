import * as z from '../../../shared/zod.js';
import type { FhirImportItem, FhirImportPreview, FhirImportResult } from '../../../shared/chart/fhir.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { ValidationError } from '../../lib/errors.js';
import { parseOrThrow } from '../../lib/http/zod-errors.js';
import { storedKey } from '../../lib/files/presign.js';
import { DRIVE_ROOT } from '../../../shared/files/drive.js';
import { analyse, writeImport, type Analysed } from '../../core/fhir/import-chart.js';
import { store } from '../../core/fhir/files-store.js';
import { readCcda, type CcdaRead } from './ccda-bundle.js';
import { CCDA_MESSAGES, parseXml } from './ccda-xml.js';

/*
 * A C-CDA document into a chart: read as FHIR resources (ccda-bundle.ts) and brought in by the
 * FHIR import's own rules, markers and preview, with what the document holds that cannot come in
 * listed beside them. The file comes in the request (an upload read by the browser) or from the
 * files store (the practice drive, or a file of this patient).
 */

export const MAX_CCDA_MB = 5;
const MAX_CCDA_CHARS = MAX_CCDA_MB * 1_000_000;

export const CcdaImportBody = z.object({
  xml: z.optional(z.string({ error: 'xml must be text' }).check(z.maxLength(MAX_CCDA_CHARS, CCDA_MESSAGES.tooLarge(MAX_CCDA_MB)))),
  fileKey: z.optional(z.string({ error: 'fileKey must be text' }).check(z.trim(), z.minLength(1), z.maxLength(600))),
});
export type CcdaImportBody = z.infer<typeof CcdaImportBody>;

export const CCDA_FILE_MESSAGES = {
  noFile: 'Send the C-CDA file (xml) or the key of a stored file (fileKey)',
  notThisPatient: "Only a file of the practice drive or of this patient's chart can be imported",
} as const;

/** The XML of the request: sent as text, or read from the files store (a drive file, or one of this patient's). */
async function xmlOf(patientId: string, body: CcdaImportBody): Promise<string> {
  if (body.xml !== undefined) return body.xml;
  if (!body.fileKey) throw new ValidationError(CCDA_FILE_MESSAGES.noFile, { xml: CCDA_FILE_MESSAGES.noFile });
  const key = storedKey(body.fileKey);
  const inside = key.slice('protected/'.length);
  if (!(inside.startsWith(DRIVE_ROOT) || inside.startsWith(`patients/${patientId}/`) || inside.startsWith(`${patientId}/`))) {
    throw new ValidationError(CCDA_FILE_MESSAGES.notThisPatient, { fileKey: CCDA_FILE_MESSAGES.notThisPatient });
  }
  const { s3, bucket } = store();
  const head = await s3.headObject({ bucket, key }).catch(() => undefined);
  if (!head) throw new ValidationError('The file was not found', { fileKey: 'was not found' });
  if (head.size > MAX_CCDA_CHARS) throw new ValidationError(CCDA_MESSAGES.tooLarge(MAX_CCDA_MB), { fileKey: CCDA_MESSAGES.tooLarge(MAX_CCDA_MB) });
  return Buffer.from(await s3.getObject({ bucket, key })).toString('utf8');
}

interface CcdaAnalysed {
  read: CcdaRead;
  analysed: Analysed;
  items: (FhirImportItem & { section: string })[];
}

async function analyseCcda(practiceId: string, patientId: string, body: CcdaImportBody): Promise<CcdaAnalysed> {
  const xml = await xmlOf(patientId, body);
  const read = readCcda(await parseXml(xml));
  const bundle = { resourceType: 'Bundle' as const, entry: read.entries };
  const analysed = await analyse(practiceId, patientId, { bundle }, (resource, input) => {
    const codings = read.codingsOf.get(resource);
    if (codings) input.codings = codings;
  });
  const mapped = analysed.items.map((i) => ({ ...publicItem(i), section: read.sectionOf.get(i.resource) ?? 'Document' }));
  const left = read.leftOut.map((l) => ({ resourceType: l.resourceType, summary: l.summary, action: 'skip' as const, reason: l.reason, section: l.section }));
  // In the document's order: its sections, each with what it brings and what it leaves out, the document note last.
  const order = [...new Set([...read.sections.map((s) => s.title), 'Document'])];
  const rank = (s: string) => (order.indexOf(s) === -1 ? order.length : order.indexOf(s));
  const items = [...mapped, ...left]
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item.section) - rank(b.item.section) || a.index - b.index)
    .map((x) => x.item);
  return { read, analysed, items };
}

const publicItem = ({ resourceType, summary, action, reason }: FhirImportItem): FhirImportItem => ({
  resourceType,
  summary,
  action,
  ...(reason ? { reason } : {}),
});
const count = (items: FhirImportItem[], action: FhirImportItem['action']) => items.filter((i) => i.action === action).length;

export interface CcdaPreview extends FhirImportPreview {
  title: string;
  items: (FhirImportItem & { section: string })[];
}

/** POST …/ccda-import-preview: what the document would add, what is already here, and what it leaves out (and why). */
export async function previewCcdaImport(auth: AuthContext, patientId: string, raw: unknown): Promise<CcdaPreview> {
  const body = parseOrThrow(CcdaImportBody, raw);
  const { read, items } = await analyseCcda(auth.practiceId, patientId, body);
  await writeAudit(auth, { action: 'read', entity: 'ccda_import_preview', patientId, count: items.length });
  return {
    title: read.title,
    sourcePatient: read.sourcePatient,
    add: count(items, 'add'),
    present: count(items, 'present'),
    skip: count(items, 'skip'),
    items,
  };
}

/** POST …/ccda-import: adds what the preview listed as new; a second import of the same document adds nothing. */
export async function importCcda(
  auth: AuthContext,
  patientId: string,
  raw: unknown,
  now = new Date(),
): Promise<FhirImportResult & { items: (FhirImportItem & { section: string })[] }> {
  const body = parseOrThrow(CcdaImportBody, raw);
  const { read, analysed } = await analyseCcda(auth.practiceId, patientId, body);
  const added = await writeImport(auth, patientId, analysed.items, now);
  await writeAudit(auth, { action: 'create', entity: 'ccda_import', patientId, count: added });
  // Read again after writing: a file the store refused is now listed as left out.
  const items = [
    ...analysed.items.map((i) => ({ ...publicItem(i), section: read.sectionOf.get(i.resource) ?? 'Document' })),
    ...read.leftOut.map((l) => ({ resourceType: l.resourceType, summary: l.summary, action: 'skip' as const, reason: l.reason, section: l.section })),
  ];
  return { added, present: count(items, 'present'), skipped: count(items, 'skip'), items };
}
