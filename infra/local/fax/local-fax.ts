/**
 * The fax vendor's local stand-in (labelled "local" in the product): it answers the Sinch Fax API
 * v3 calls the fax adapter makes (functions/lib/adapters/fax.ts), keeps what was sent, and
 * "delivers" each fax a moment later: QUEUED, IN_PROGRESS, then a FAX_COMPLETED callback to the
 * fax's callbackUrl, in the content type the fax asked for (multipart/form-data unless
 * callbackUrlContentType is application/json), unsigned as Sinch sends it: the URL's token is
 * the only credential. It also simulates a received fax: POST {prefix}/inbound {from, pdfBase64?,
 * contentType?} sends INCOMING_FAX with the PDF to the service's incoming callback URL (the
 * delivery route with the practice's token, as the operator sets it), multipart/form-data as a
 * Sinch fax service sends by default. Nothing leaves the machine.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { FAX_PARTNER_ID } from '../../../shared/faxes/fax-schema.js';
import { faxCallbackUrlWithToken } from '../../../functions/lib/adapters/fax.js';

export const LOCAL_FAX_PATH = '/local/fax';
/** The project and fax line of a practice file without `fax` (the demo's file names the same ones). */
export const LOCAL_FAX_PROJECT_ID = 'local-fax-project';
export const LOCAL_FAX_NUMBERS = ['+15415550190'];

interface LocalFaxRecord {
  id: string;
  direction: 'OUTBOUND' | 'INBOUND';
  from: string;
  to: string;
  status: 'QUEUED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILURE';
  numberOfPages: number;
  createTime: string;
  completedTime?: string;
  bytes: number;
}

export interface LocalFaxOptions {
  secretsFile: string;
  /** Where received faxes are reported (the API's signed delivery route). */
  callbackUrl: string;
  /** How long "transmitting" takes; the tests shorten it. */
  deliveryDelayMs?: number;
  /** The Sinch project this stand-in is: `fax.projectId` of practices/<slug>.json. */
  projectId?: string;
  /** The numbers it holds: `fax.numbers` of practices/<slug>.json (a simulated received fax goes to the first). */
  numbers?: readonly string[];
}

const send = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Pages as a reader counts them: a PDF with object streams names no `/Type /Page` in plain text. */
async function pageCount(pdf: Uint8Array): Promise<number> {
  try {
    return (await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false })).getPageCount();
  } catch {
    const text = Buffer.from(pdf).toString('latin1');
    return Math.max(1, (text.match(/\/Type\s*\/Page(?!s)/g) ?? []).length);
  }
}

/** A one-page letter from an outside office, for a simulated received fax without a file. */
async function sampleInboundPdf(from: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Riverside Cardiology', { x: 54, y: 730, size: 18, font: bold });
  page.drawText(`Fax from ${from}`, { x: 54, y: 706, size: 11, font });
  page.drawText('Consultation summary: echocardiogram within normal limits. Follow up in 12 months.', { x: 54, y: 660, size: 11, font });
  return doc.save();
}

export function createLocalFax(options: LocalFaxOptions) {
  const projectId = options.projectId ?? LOCAL_FAX_PROJECT_ID;
  const numbers = options.numbers?.length ? options.numbers : LOCAL_FAX_NUMBERS;
  const faxes: LocalFaxRecord[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const secret = () => (JSON.parse(readFileSync(options.secretsFile, 'utf8')) as Record<string, string>)[FAX_PARTNER_ID] ?? '';
  const delay = options.deliveryDelayMs ?? 1500;

  /** Sinch's webhook: JSON (the PDF base64 in `file`) or a form with `fax` as JSON text and the PDF as the `file` part. */
  async function callback(
    url: string,
    event: { event: string; eventTime: string; fax: Record<string, unknown> },
    contentType: string,
    pdf?: Uint8Array,
  ): Promise<number> {
    if (contentType === 'application/json') {
      const body = JSON.stringify({ ...event, ...(pdf ? { file: Buffer.from(pdf).toString('base64'), fileType: 'PDF' } : {}) });
      return (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status;
    }
    const form = new FormData();
    form.set('event', event.event);
    form.set('eventTime', event.eventTime);
    form.set('fax', JSON.stringify(event.fax));
    if (pdf) form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `${String(event.fax.id)}.pdf`);
    return (await fetch(url, { method: 'POST', body: form })).status;
  }

  const later = (ms: number, fn: () => Promise<unknown> | void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      Promise.resolve(fn()).catch(() => undefined);
    }, ms);
    timers.add(t);
  };

  const publicFax = (f: LocalFaxRecord) => ({
    id: f.id,
    direction: f.direction,
    from: f.from,
    to: f.to,
    status: f.status,
    numberOfPages: f.numberOfPages,
    createTime: f.createTime,
    ...(f.completedTime ? { completedTime: f.completedTime } : {}),
    projectId,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_FAX_PATH.length) || '/';
    const faxesPath = `/v3/projects/${projectId}/faxes`;
    if (path === faxesPath && req.method === 'POST') {
      if (req.headers.authorization !== `Basic ${Buffer.from(secret()).toString('base64')}`)
        return send(res, 401, { code: 401, status: 'UNAUTHENTICATED', message: 'Invalid credentials' });
      const raw = await readBody(req);
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
      const to = String(form.get('to') ?? '');
      const from = String(form.get('from') ?? '');
      const file = form.get('file');
      const callbackUrl = String(form.get('callbackUrl') ?? '');
      const callbackContentType = form.get('callbackUrlContentType') === 'application/json' ? 'application/json' : 'multipart/form-data';
      if (!/^\+\d{10,15}$/.test(to)) return send(res, 400, { code: 400, status: 'INVALID_ARGUMENT', message: 'to must be an E.164 number' });
      if (!(file instanceof Blob)) return send(res, 400, { code: 400, status: 'INVALID_ARGUMENT', message: 'file or contentUrl is required' });
      const pdf = new Uint8Array(await file.arrayBuffer());
      const fax: LocalFaxRecord = {
        id: `01${randomUUID().replace(/-/g, '').toUpperCase().slice(0, 24)}`,
        direction: 'OUTBOUND',
        from,
        to,
        status: 'QUEUED',
        numberOfPages: await pageCount(pdf),
        createTime: new Date().toISOString(),
        bytes: pdf.length,
      };
      faxes.unshift(fax);
      later(delay / 3, () => {
        fax.status = 'IN_PROGRESS';
      });
      later(delay, async () => {
        fax.status = 'COMPLETED';
        fax.completedTime = new Date().toISOString();
        if (callbackUrl)
          await callback(
            callbackUrl,
            { event: 'FAX_COMPLETED', eventTime: fax.completedTime, fax: publicFax(fax) },
            callbackContentType,
            callbackContentType === 'application/json' ? undefined : pdf,
          );
      });
      return send(res, 200, publicFax(fax));
    }
    if (path === faxesPath && req.method === 'GET') return send(res, 200, { faxes: faxes.map(publicFax), totalItems: faxes.length });
    if (path === '/inbound' && req.method === 'POST') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as { from?: string; to?: string; pdfBase64?: string; contentType?: string };
      const from = body.from && /^\+\d{10,15}$/.test(body.from) ? body.from : '+15035550142';
      const pdf = body.pdfBase64 ? new Uint8Array(Buffer.from(body.pdfBase64, 'base64')) : await sampleInboundPdf(from);
      const at = new Date().toISOString();
      const fax: LocalFaxRecord = {
        id: `01${randomUUID().replace(/-/g, '').toUpperCase().slice(0, 24)}`,
        direction: 'INBOUND',
        from,
        to: body.to ?? numbers[0]!,
        status: 'COMPLETED',
        numberOfPages: await pageCount(pdf),
        createTime: at,
        completedTime: at,
        bytes: pdf.length,
      };
      faxes.unshift(fax);
      const status = await callback(
        faxCallbackUrlWithToken(options.callbackUrl, secret()),
        { event: 'INCOMING_FAX', eventTime: at, fax: publicFax(fax) },
        body.contentType === 'application/json' ? 'application/json' : 'multipart/form-data',
        pdf,
      );
      return send(res, 200, { fax: publicFax(fax), callbackStatus: status });
    }
    send(res, 404, { code: 404, status: 'NOT_FOUND', message: 'Not found' });
  }

  return {
    handle,
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
