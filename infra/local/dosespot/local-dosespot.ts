/**
 * DoseSpot (local stand-in): the e-prescribing window `npm start` serves at /local/dosespot. It
 * checks the single sign-on query the way DoseSpot does, recomputing both hashes with its own copy
 * of the clinic key (the `dosespot` entry of the data folder's partner-secrets.json), and answers
 * DoseSpot's RESTful API v2 under /webapi/v2: the password-grant token (subscription key, clinic id
 * and key, a known user), then bearer-token calls that add patients (with DoseSpot's required
 * fields) and list their prescriptions a page at a time. A signed-in prescriber writes
 * prescriptions in the window that the sync reads back.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DOSESPOT_PATIENT_LIMITS } from '../../../functions/lib/adapters/dosespot.js';

export const LOCAL_DOSESPOT_LABEL = 'DoseSpot (local stand-in)';
export const LOCAL_DOSESPOT_PREFIX = '/local/dosespot';
const SESSION_MS = 60 * 60_000;

interface Clinic {
  clinicId: string;
  clinicKey: string;
  subscriptionKey?: string;
  /** The clinic-level DoseSpot user the scheduled sync acts as: a user of the clinic like the prescribers. */
  clinicUserId?: string;
  users: Record<string, string>;
}

/** The clinic's DoseSpot user ids: the prescribers' and the clinic-level one. */
const clinicUserIds = (c: Clinic) => [...Object.values(c.users), ...(c.clinicUserId ? [c.clinicUserId] : [])];

/** DoseSpot's access tokens last ten minutes. */
const TOKEN_SECONDS = 600;
/** Small pages, so a sync walks more than one. */
const PAGE_SIZE = 5;

export interface LocalDoseSpotPatient {
  Id: number;
  NonDoseSpotMedicalRecordNumber: string;
  FirstName: string;
  LastName: string;
  DateOfBirth: string;
  Gender: string;
  Address1?: string;
  City?: string;
  State?: string;
  ZipCode?: string;
  PrimaryPhone?: string;
  PrimaryPhoneType?: number;
}

export interface LocalDoseSpotPrescription {
  PrescriptionId: number;
  PatientId: number;
  DisplayName: string;
  Quantity: string;
  Refills: string;
  Directions: string;
  WrittenDate: string;
  PrescriberId: string;
  PrescriberName: string;
}

interface State {
  nextId: number;
  patients: LocalDoseSpotPatient[];
  prescriptions: LocalDoseSpotPrescription[];
}

/**
 * Writes the clinic's DoseSpot entry into the partner secrets file once (the clinic key stays
 * across restarts) and maps each given Tidewell user to a DoseSpot user id, as a clinic admin
 * does in DoseSpot.
 */
export function ensureLocalDoseSpot(secretsFile: string, baseUrl: string, userIds: readonly string[]): void {
  const secrets = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  let entry: Partial<Clinic & { baseUrl: string }> = {};
  try {
    entry = JSON.parse(secrets.dosespot ?? '{}') as typeof entry;
  } catch {
    /* rewritten below */
  }
  const users = { ...(entry.users ?? {}) };
  let next = Math.max(1000, ...[...Object.values(users), entry.clinicUserId].map(Number).filter(Number.isFinite)) + 1;
  for (const id of userIds) users[id] ??= String(next++);
  const clinicUserId = entry.clinicUserId ?? String(next++);
  const clinic = {
    baseUrl: `${baseUrl}${LOCAL_DOSESPOT_PREFIX}/`,
    clinicId: entry.clinicId ?? '30871',
    clinicKey: entry.clinicKey ?? randomBytes(24).toString('hex'),
    subscriptionKey: entry.subscriptionKey ?? randomBytes(16).toString('hex'),
    clinicUserId,
    users,
  };
  secrets.dosespot = JSON.stringify(clinic);
  writeFileSync(secretsFile, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** DoseSpot's comparison value: base64 of the UTF-8 SHA-512, a trailing '==' dropped. */
function vendorHash(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('base64').replace(/==$/, '');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 100_000) throw new Error('Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}label{display:block;margin-top:.5rem}input,textarea,button{font:inherit;box-sizing:border-box;width:100%;max-width:32rem}button{display:block;margin-top:.75rem;padding:.4rem 1rem;width:auto;background:#005377;color:#fff;border:0;border-radius:4px}:focus-visible{outline:3px solid #005377;outline-offset:2px}.tag{display:inline-block;background:#fff4ce;border:1px solid #8a6d00;padding:0 .5rem;border-radius:4px;font-size:.875rem}table{border-collapse:collapse}.scroll{overflow-x:auto}td,th{border:1px solid #767676;padding:.25rem .5rem;text-align:left}';

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} (${LOCAL_DOSESPOT_LABEL})</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)} <span class="tag">${LOCAL_DOSESPOT_LABEL}</span></h1>${body}</main></body></html>`;
}

export function createLocalDoseSpot(opts: { dataDir: string; secretsFile: string; now?: () => Date }) {
  const file = join(opts.dataDir, 'dosespot.json');
  const state: State = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as State) : { nextId: 1, patients: [], prescriptions: [] };
  const sessions = new Map<string, { userId: string; patientId?: number; at: number }>();
  const tokens = new Map<string, { userId: string; expiresAt: number }>();
  const now = () => (opts.now ?? (() => new Date()))();

  function save(): void {
    mkdirSync(opts.dataDir, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  }

  function clinic(): Clinic | null {
    try {
      const entry = (JSON.parse(readFileSync(opts.secretsFile, 'utf8')) as Record<string, string>).dosespot;
      return entry ? (JSON.parse(entry) as Clinic) : null;
    } catch {
      return null;
    }
  }

  /** DoseSpot's check of a single sign-on query: the signed-in DoseSpot user id, or why not. */
  function verify(q: URLSearchParams): { userId: string } | { refused: string } {
    const c = clinic();
    if (!c) return { refused: 'This clinic is not set up.' };
    const clinicId = q.get('SingleSignOnClinicId');
    const userId = q.get('SingleSignOnUserId') ?? '';
    const length = Number(q.get('SingleSignOnPhraseLength'));
    const code = q.get('SingleSignOnCode') ?? '';
    const userVerify = q.get('SingleSignOnUserIdVerify') ?? '';
    if (clinicId !== c.clinicId) return { refused: 'Unknown clinic.' };
    if (!clinicUserIds(c).includes(userId)) return { refused: 'Unknown user.' };
    if (!Number.isInteger(length) || length < 32 || code.length <= length) return { refused: 'The single sign-on code is not valid.' };
    const phrase = code.slice(0, length);
    if (!sameText(code.slice(length), vendorHash(phrase + c.clinicKey))) return { refused: 'The single sign-on code is not valid.' };
    if (!sameText(userVerify, vendorHash(phrase.slice(0, 22) + userId + c.clinicKey))) return { refused: 'The user id verification is not valid.' };
    return { userId };
  }

  function refuse(res: ServerResponse, reason: string, json: boolean): void {
    if (json) res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ Result: { ResultCode: 'ERROR', ResultDescription: reason } }));
    else res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(html('Sign-in refused', `<p role="alert">${escapeHtml(reason)}</p>`));
  }

  function windowPage(session: string, patient: LocalDoseSpotPatient | undefined, saved: boolean): string {
    if (!patient) return html('DoseSpot', "<p>Signed in. Open DoseSpot from a patient's chart to write a prescription.</p>");
    const rows = state.prescriptions
      .filter((p) => p.PatientId === patient.Id)
      .map(
        (p) =>
          `<tr><td>${escapeHtml(p.DisplayName)}</td><td>${escapeHtml(p.Quantity)}</td><td>${escapeHtml(p.Refills)}</td><td>${escapeHtml(p.Directions)}</td></tr>`,
      )
      .join('');
    return html(
      'DoseSpot',
      `<p>Patient: ${escapeHtml(`${patient.FirstName} ${patient.LastName}`)}</p>${saved ? '<p role="status">Prescription sent.</p>' : ''}
<h2>New prescription</h2>
<form method="post" action="${LOCAL_DOSESPOT_PREFIX}/prescriptions">
<input type="hidden" name="session" value="${escapeHtml(session)}">
<label for="drug">Drug name</label><input id="drug" name="drug" required maxlength="200">
<label for="quantity">Quantity</label><input id="quantity" name="quantity" required inputmode="decimal" pattern="[0-9]+(\\.[0-9]+)?">
<label for="refills">Refills</label><input id="refills" name="refills" required inputmode="numeric" pattern="[0-9]{1,2}" value="0">
<label for="directions">Directions</label><input id="directions" name="directions" required maxlength="1000">
<button type="submit">Send prescription</button>
</form>
<h2>Prescriptions</h2>${rows ? `<div class="scroll" role="region" aria-label="Prescriptions" tabindex="0"><table><thead><tr><th>Drug</th><th>Quantity</th><th>Refills</th><th>Directions</th></tr></thead><tbody>${rows}</tbody></table></div>` : '<p>None yet.</p>'}`,
    );
  }

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  }
  function resultError(res: ServerResponse, status: number, description: string): void {
    json(res, status, { Result: { ResultCode: 'ERROR', ResultDescription: description } });
  }

  /** DoseSpot's add-patient checks: the fields it requires and their formats. */
  function patientProblems(body: Record<string, unknown>): string | null {
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '');
    for (const k of ['FirstName', 'LastName', 'DateOfBirth', 'Address1', 'City', 'State', 'ZipCode', 'PrimaryPhone']) if (!text(k)) return `${k} is required.`;
    // The string lengths DoseSpot's API help publishes for AddEditPatientRequest.
    for (const [k, max] of Object.entries(DOSESPOT_PATIENT_LIMITS))
      if (typeof body[k] === 'string' && (body[k] as string).length > max) return `${k} must be a string with a maximum length of ${max}.`;
    if (!['Male', 'Female', 'Unknown'].includes(text('Gender'))) return 'Gender is invalid.';
    if (Number.isNaN(Date.parse(text('DateOfBirth'))) || Date.parse(text('DateOfBirth')) > now().getTime()) return 'DateOfBirth is invalid.';
    if (!/^\d{5}(-?\d{4})?$/.test(text('ZipCode'))) return 'ZipCode is invalid.';
    if (text('PrimaryPhone').replace(/\D/g, '').length !== 10) return 'PrimaryPhone is invalid.';
    if (!Number.isInteger(body.PrimaryPhoneType) || (body.PrimaryPhoneType as number) < 1 || (body.PrimaryPhoneType as number) > 7)
      return 'PrimaryPhoneType is invalid.';
    return null;
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, q: URLSearchParams): Promise<void> {
    const c = clinic();
    // DoseSpot's API gateway checks the subscription key before anything else.
    if (!c?.subscriptionKey || !sameText(String(req.headers['subscription-key'] ?? ''), c.subscriptionKey)) {
      return json(res, 401, {
        statusCode: 401,
        message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      });
    }

    if (req.method === 'POST' && path === '/connect/token') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('grant_type') !== 'password' || form.get('scope') !== 'api') return json(res, 400, { error: 'unsupported_grant_type' });
      const userId = form.get('username') ?? '';
      const valid =
        form.get('client_id') === c.clinicId &&
        sameText(form.get('client_secret') ?? '', c.clinicKey) &&
        sameText(form.get('password') ?? '', c.clinicKey) &&
        clinicUserIds(c).includes(userId);
      if (!valid) return json(res, 400, { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' });
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, { userId, expiresAt: Date.now() + TOKEN_SECONDS * 1000 });
      const issued = now();
      return json(res, 200, {
        access_token: token,
        token_type: 'bearer',
        expires_in: TOKEN_SECONDS,
        userName: userId,
        '.issued': issued.toUTCString(),
        '.expires': new Date(issued.getTime() + TOKEN_SECONDS * 1000).toUTCString(),
      });
    }

    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const session = bearer ? tokens.get(bearer) : undefined;
    if (!session || session.expiresAt < Date.now()) return json(res, 401, { Message: 'Authorization has been denied for this request.' });

    if (req.method === 'POST' && path === '/api/patients') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return resultError(res, 400, 'The request is invalid.');
      }
      const problem = patientProblems(body);
      if (problem) return resultError(res, 400, problem);
      const record = typeof body.NonDoseSpotMedicalRecordNumber === 'string' ? body.NonDoseSpotMedicalRecordNumber : '';
      const fields = {
        FirstName: String(body.FirstName).trim(),
        LastName: String(body.LastName).trim(),
        DateOfBirth: String(body.DateOfBirth),
        Gender: String(body.Gender),
        Address1: String(body.Address1).trim(),
        City: String(body.City).trim(),
        State: String(body.State).trim(),
        ZipCode: String(body.ZipCode).trim(),
        PrimaryPhone: String(body.PrimaryPhone),
        PrimaryPhoneType: body.PrimaryPhoneType as number,
      };
      // DoseSpot adds a new patient on each call; Tidewell keeps the PatientId it got first.
      const patient: LocalDoseSpotPatient = { Id: state.nextId++, NonDoseSpotMedicalRecordNumber: record, ...fields };
      state.patients.push(patient);
      save();
      return json(res, 201, { Id: patient.Id, Result: { ResultCode: 'OK', ResultDescription: '' } });
    }

    const list = /^\/api\/patients\/(\d+)\/prescriptions$/.exec(path);
    if (req.method === 'GET' && list) {
      const patientId = Number(list[1]);
      if (!state.patients.some((p) => p.Id === patientId)) return resultError(res, 404, 'Patient not found.');
      const page = q.has('pageNumber') ? Number(q.get('pageNumber')) : 1;
      if (!Number.isInteger(page) || page < 1) return resultError(res, 400, 'pageNumber is invalid.');
      const all = state.prescriptions.filter((p) => p.PatientId === patientId);
      const totalPages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
      return json(res, 200, {
        Items: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
        Result: { ResultCode: 'OK', ResultDescription: '' },
        PageResult: {
          CurrentPage: page,
          TotalPages: totalPages,
          PageSize: PAGE_SIZE,
          TotalCount: all.length,
          HasPrevious: page > 1,
          HasNext: page < totalPages,
        },
      });
    }

    return resultError(res, 404, 'No such resource.');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_DOSESPOT_PREFIX.length) || '/';
    const q = url.searchParams;

    if (req.method === 'GET' && path === '/LoginSingleSignOn.aspx') {
      const ok = verify(q);
      if ('refused' in ok) return refuse(res, ok.refused, false);
      const patientId = q.get('PatientId') ? Number(q.get('PatientId')) : undefined;
      const patient = patientId === undefined ? undefined : state.patients.find((p) => p.Id === patientId);
      if (patientId !== undefined && !patient) return refuse(res, 'Unknown patient.', false);
      const session = randomBytes(18).toString('base64url');
      sessions.set(session, { userId: ok.userId, patientId, at: Date.now() });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(windowPage(session, patient, false));
      return;
    }

    if (req.method === 'POST' && path === '/prescriptions') {
      const form = new URLSearchParams(await readBody(req));
      const s = sessions.get(form.get('session') ?? '');
      if (!s || Date.now() - s.at > SESSION_MS || s.patientId === undefined) return refuse(res, 'Your DoseSpot session has ended. Open DoseSpot again.', false);
      const drug = (form.get('drug') ?? '').trim();
      const quantity = (form.get('quantity') ?? '').trim();
      const refills = (form.get('refills') ?? '').trim();
      const directions = (form.get('directions') ?? '').trim();
      if (!drug || !/^\d+(\.\d+)?$/.test(quantity) || !/^\d{1,2}$/.test(refills) || !directions) {
        res
          .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
          .end(html('DoseSpot', '<p role="alert">Drug name, quantity, refills and directions are required.</p>'));
        return;
      }
      const userName = s.userId;
      state.prescriptions.push({
        PrescriptionId: state.nextId++,
        PatientId: s.patientId,
        DisplayName: drug.slice(0, 200),
        Quantity: quantity,
        Refills: refills,
        Directions: directions.slice(0, 1000),
        WrittenDate: now().toISOString(),
        PrescriberId: s.userId,
        PrescriberName: `DoseSpot user ${userName}`,
      });
      save();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        windowPage(
          form.get('session')!,
          state.patients.find((p) => p.Id === s.patientId),
          true,
        ),
      );
      return;
    }

    if (path.startsWith('/webapi/v2/')) return api(req, res, path.slice('/webapi/v2'.length), q);

    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(html('Not found', '<p>No such page.</p>'));
  }

  return { handle, state };
}
