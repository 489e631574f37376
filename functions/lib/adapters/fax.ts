/**
 * The fax vendor: Sinch Fax API v3 (https://developers.sinch.com/docs/fax/api-reference/fax).
 * A fax is sent with `POST {base}/v3/projects/{projectId}/faxes` as multipart/form-data (`to`,
 * `from`, `file`, `callbackUrl`, `callbackUrlContentType`), HTTP Basic with the project's access
 * key id and secret (https://developers.sinch.com/docs/fax/api-reference/authentication/basic);
 * the answer is the Fax resource (`id`, `status` QUEUED | IN_PROGRESS | COMPLETED | FAILURE,
 * `numberOfPages`). Completion (FAX_COMPLETED) comes back as JSON to the fax's callbackUrl (we ask
 * for application/json); received faxes (INCOMING_FAX) go to the fax service's incoming callback
 * URL as multipart/form-data (`event`, `eventTime`, `fax` as JSON text, the PDF as the `file`
 * part) unless the service is set to JSON (the PDF base64 in `file`)
 * (https://developers.sinch.com/docs/fax/api-reference/fax/tag/Notifications). Sinch signs no
 * callback (its Node SDK's FaxCallbackWebhooks.validateAuthenticationHeader accepts anything), so
 * the callback URL carries a token (`?token=`, faxCallbackToken) only the practice and Sinch see.
 * Deployed, FAX_API_URL is https://fax.api.sinch.com; locally it is the loopback stand-in
 * (infra/local/fax), which speaks the same API. The key is the practice's partner secret
 * `sinch-fax` as "<keyId>:<keySecret>".
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The callback URL's token: derived from the project's key, so the practice keeps one secret for Sinch. */
export function faxCallbackToken(key: string): string {
  return createHmac('sha256', key).update('sinch-fax callback').digest('base64url').slice(0, 32);
}

/** The callback URL Sinch is given: the delivery route with the practice's token. */
export function faxCallbackUrlWithToken(callbackUrl: string, key: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('token', faxCallbackToken(key));
  return url.href;
}

/** Is `given` the practice's callback token? Compared in constant time; no key or no token is never. */
export function verifyFaxCallbackToken(key: string | null, given: string | undefined): boolean {
  if (!key || !given) return false;
  const a = Buffer.from(faxCallbackToken(key));
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface SendFaxRequest {
  to: string;
  from: string;
  pdf: Uint8Array;
  fileName: string;
  callbackUrl: string;
}

export interface SentFax {
  faxId: string;
  status: string;
  pages: number | null;
}

export interface FaxSender {
  send(request: SendFaxRequest): Promise<SentFax>;
}

export class FaxVendorError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'FaxVendorError';
  }
}

export type FaxExchange = (url: string, init: { method: string; headers: Record<string, string>; body: FormData }) => Promise<{ status: number; body: string }>;

const fetchExchange: FaxExchange = async (url, init) => {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text() };
};

export class SinchFax implements FaxSender {
  constructor(
    private readonly options: {
      baseUrl: string;
      projectId: string;
      /** "<keyId>:<keySecret>" */
      key: string;
      exchange?: FaxExchange;
    },
  ) {}

  async send(request: SendFaxRequest): Promise<SentFax> {
    const form = new FormData();
    form.set('to', request.to);
    form.set('from', request.from);
    form.set('callbackUrl', faxCallbackUrlWithToken(request.callbackUrl, this.options.key));
    form.set('callbackUrlContentType', 'application/json');
    form.set('file', new Blob([new Uint8Array(request.pdf)], { type: 'application/pdf' }), request.fileName);
    const url = `${this.options.baseUrl.replace(/\/$/, '')}/v3/projects/${encodeURIComponent(this.options.projectId)}/faxes`;
    const headers = { authorization: `Basic ${Buffer.from(this.options.key).toString('base64')}`, accept: 'application/json' };
    const exchange = this.options.exchange ?? fetchExchange;
    const answer = await exchange(url, { method: 'POST', headers, body: form });
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(answer.body) as Record<string, unknown>;
    } catch {
      /* not JSON: the status names it */
    }
    if (answer.status >= 300)
      throw new FaxVendorError(`Fax vendor refused the fax: ${typeof parsed.message === 'string' ? parsed.message : `HTTP ${answer.status}`}`, answer.status);
    if (typeof parsed.id !== 'string') throw new FaxVendorError('Fax vendor answered without a fax id', answer.status);
    return {
      faxId: parsed.id,
      status: typeof parsed.status === 'string' ? parsed.status : 'QUEUED',
      pages: typeof parsed.numberOfPages === 'number' ? parsed.numberOfPages : null,
    };
  }
}

/** Sinch's callback body (JSON content type): FAX_COMPLETED for a sent fax, INCOMING_FAX with the PDF. */
export interface FaxEvent {
  event: 'FAX_COMPLETED' | 'INCOMING_FAX' | string;
  eventTime?: string;
  fax: { id: string; direction?: string; from?: string; to?: string; status?: string; numberOfPages?: number; errorMessage?: string; errorType?: string };
  file?: string;
  fileType?: string;
}

/**
 * A callback body in either of Sinch's content types: JSON as is; multipart/form-data with `fax`
 * as JSON text and the PDF as the `file` part, turned into the JSON shape (file base64).
 */
export async function parseFaxCallback(contentType: string, body: Uint8Array): Promise<unknown> {
  if (!/^multipart\/form-data/i.test(contentType)) return JSON.parse(Buffer.from(body).toString('utf8'));
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const fax = text('fax');
  const file = form.get('file');
  return {
    event: text('event'),
    ...(text('eventTime') ? { eventTime: text('eventTime') } : {}),
    fax: fax ? (JSON.parse(fax) as unknown) : undefined,
    ...(file instanceof Blob ? { file: Buffer.from(await file.arrayBuffer()).toString('base64'), fileType: 'PDF' } : {}),
  };
}

export interface FaxSettings {
  baseUrl: string;
  projectId: string;
  numbers: string[];
  /** Where the vendor reports completion and received faxes: the API's signed delivery route (README "Partner apps"). */
  callbackUrl: string;
}

/** FAX_API_URL, FAX_PROJECT_ID, FAX_CALLBACK_URL and FAX_NUMBERS (the practice's fax numbers, comma separated), or null when faxing is not set up. */
export function faxSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): FaxSettings | null {
  if (!env.FAX_API_URL || !env.FAX_PROJECT_ID || !env.FAX_CALLBACK_URL) return null;
  return {
    baseUrl: env.FAX_API_URL,
    projectId: env.FAX_PROJECT_ID,
    callbackUrl: env.FAX_CALLBACK_URL,
    numbers: (env.FAX_NUMBERS ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  };
}
