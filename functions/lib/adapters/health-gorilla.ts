/**
 * Lab orders and results through Health Gorilla's FHIR R4 API.
 *
 * - Access token: OAuth 2.0 JWT bearer grant (RFC 7523) at `<base>/oauth/token`: a JWT signed
 *   HS256 with the client secret, iss = the client's URI, sub = the user login the practice was
 *   given, aud = the token URL; answered with `{ access_token, token_type, expires_in }`.
 * - The ordering provider: `GET /fhir/R4/Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|<npi>`,
 *   a searchset Bundle; the Practitioner's id is the "lab provider resource id" an order needs.
 * - The order: `POST /fhir/R4/RequestGroup` with profile hg-order, the Patient, the Practitioner,
 *   the Account and one ServiceRequest per test contained, the HG extensions (authorizedBy,
 *   performer, requester, account, deliveryOptions) and one action per test. 201 with the created
 *   RequestGroup (its id, the requisition on each ServiceRequest); an OperationOutcome otherwise.
 * - Results: DiagnosticReport resources with their Observations contained, basedOn the
 *   RequestGroup, sent to the practice's Subscription endpoint (rest-hook, with the header the
 *   Subscription names) or read with `GET /fhir/R4/DiagnosticReport?based-on=RequestGroup/<id>`;
 *   a delivered report is read back with `GET /fhir/R4/DiagnosticReport/<id>` and that copy applied.
 * Locally HEALTH_GORILLA_URL points the same code at the stand-in of `npm start` (infra/local/labs).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LabResultItem, LabTestCode } from '../../../shared/labs/lab-schema.js';
import type { HttpExchange } from './sms-carrier.js';

export const HG_EXT = 'https://www.healthgorilla.com/fhir/StructureDefinition';
export const HG_ORDER_PROFILE = 'https://healthgorilla.com/fhir/StructureDefinition/hg-order';
export const HG_SYSTEM = 'https://www.healthgorilla.com';
export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
export const LOINC = 'http://loinc.org';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** A FHIR resource id (R4 datatypes, id): what may go into a read's path. */
export const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export interface HealthGorillaConfig {
  /** https://api.healthgorilla.com (sandbox: https://sandbox.healthgorilla.com). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The JWT's iss: the client's URI registered with Health Gorilla. */
  clientUri: string;
  /** The JWT's sub: the user login Health Gorilla gave the practice. */
  userLogin: string;
  scopes: string;
  /** The practice's Organization at Health Gorilla (requestgroup-authorizedBy). */
  authorizedBy: string;
  /** The performing lab's Organization id (requestgroup-performer). */
  performer: string;
  /** Is the local stand-in of npm start. */
  local?: boolean;
}

export class LabProviderError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable' | 'unauthorized',
    /** The OperationOutcome's diagnostics: what the vendor found wrong (no patient data of ours). */
    readonly issues: string[],
    readonly status = 0,
  ) {
    super(`Lab provider ${kind}${issues.length ? `: ${issues.join('; ')}` : ''}`);
    this.name = 'LabProviderError';
  }
}

export interface LabOrderInput {
  /** Our note id: the placer's identifier of the order. */
  noteId: string;
  tests: { code: LabTestCode; display: string }[];
  patient: {
    id: string;
    firstName?: string;
    lastName?: string;
    dob?: string | null;
    gender?: string | null;
    phone?: string | null;
    email?: string | null;
    address?: { line?: string; city?: string; state?: string; postalCode?: string } | null;
  };
  provider: { resourceId: string; name: string; npi: string };
  authoredOn: string;
}

export interface PlacedOrder {
  hgId: string;
  requisition: string;
  status: string;
  actions: { display: string }[];
}

type Json = Record<string, unknown>;

const fetchExchange: HttpExchange = async (url, init) => {
  // fetch refuses a body on GET, even an empty one.
  const response = await fetch(url, init.method === 'GET' ? { method: 'GET', headers: init.headers } : init);
  return { status: response.status, body: await response.text() };
};

const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The JWT the token call carries (HS256 over header.payload with the client secret). */
export function bearerAssertion(config: Pick<HealthGorillaConfig, 'baseUrl' | 'clientSecret' | 'clientUri' | 'userLogin'>, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(
    JSON.stringify({ aud: `${config.baseUrl.replace(/\/$/, '')}/oauth/token`, iss: config.clientUri, sub: config.userLogin, iat, exp: iat + 3600 }),
  );
  const signature = createHmac('sha256', config.clientSecret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

/** Checks an HS256 JWT (the stand-in's side of the token call); its claims, or null. */
export function verifyAssertion(jwt: string, secret: string, now = Date.now()): Json | null {
  const [head, body, signature] = jwt.split('.');
  if (!head || !body || !signature) return null;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Json;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Json;
    if (header.alg !== 'HS256') return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < now) return null;
    return claims;
  } catch {
    return null;
  }
}

function issuesOf(body: string): string[] {
  try {
    const outcome = JSON.parse(body) as { resourceType?: string; issue?: { diagnostics?: string; details?: { text?: string } }[] };
    if (outcome.resourceType !== 'OperationOutcome') return [];
    return (outcome.issue ?? []).map((i) => i.diagnostics ?? i.details?.text ?? '').filter(Boolean);
  } catch {
    return [];
  }
}

const genderOf = (g: string | null | undefined) => {
  const v = (g ?? '').toLowerCase();
  return v.startsWith('m') ? 'male' : v.startsWith('f') ? 'female' : v ? 'other' : 'unknown';
};

/** Drops blank strings and absent values: FHIR JSON allows no empty string, array or null (R4 json.html, ele-1). */
function compact(fields: Record<string, string | string[] | undefined | null>): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.length : false) out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/** The hg-order RequestGroup for the chosen tests, the patient and the ordering provider. */
export function buildRequestGroup(config: Pick<HealthGorillaConfig, 'authorizedBy' | 'performer'>, order: LabOrderInput): Json {
  const p = order.patient;
  const telecom = [...(p.phone ? [{ system: 'phone', value: p.phone }] : []), ...(p.email ? [{ system: 'email', value: p.email }] : [])];
  const address = p.address
    ? compact({
        line: p.address.line?.trim() ? [p.address.line.trim()] : undefined,
        city: p.address.city,
        state: p.address.state,
        postalCode: p.address.postalCode,
      })
    : {};
  const patient: Json = {
    resourceType: 'Patient',
    id: 'patient',
    identifier: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, system: 'urn:tidewell:patient', value: p.id }],
    name: [compact({ family: p.lastName, given: p.firstName?.trim() ? [p.firstName.trim()] : undefined })],
    gender: genderOf(p.gender),
    ...(p.dob ? { birthDate: p.dob.slice(0, 10) } : {}),
    ...(telecom.length ? { telecom } : {}),
    ...(Object.keys(address).length ? { address: [{ ...address, country: 'US' }] } : {}),
  };
  const [family, ...given] = order.provider.name.trim().split(/\s+/).reverse();
  const practitioner: Json = {
    resourceType: 'Practitioner',
    id: 'practitioner',
    identifier: [{ system: HG_SYSTEM, value: order.provider.resourceId }, ...(order.provider.npi ? [{ system: NPI_SYSTEM, value: order.provider.npi }] : [])],
    name: [compact({ family, given: given.length ? given.reverse() : undefined, text: order.provider.name.trim() })],
  };
  const account: Json = {
    resourceType: 'Account',
    id: 'account',
    status: 'active',
    type: { coding: [{ system: `${HG_SYSTEM}/account-type`, code: 'patient' }] },
    guarantor: [{ party: { reference: '#patient' } }],
  };
  const tests = order.tests.map((t, i) => ({
    resourceType: 'ServiceRequest',
    id: `labtest${i}`,
    status: 'active',
    intent: 'order',
    identifier: [{ system: 'urn:tidewell:note', value: `${order.noteId}-${t.code}` }],
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '103693007', display: 'Diagnostic procedure' }] }],
    code: { coding: [{ system: LOINC, code: t.code, display: t.display }], text: t.display },
    subject: { reference: '#patient' },
    requester: { reference: '#practitioner' },
    priority: 'routine',
    authoredOn: order.authoredOn,
  }));
  return {
    resourceType: 'RequestGroup',
    meta: { profile: [HG_ORDER_PROFILE] },
    identifier: [{ system: 'urn:tidewell:note', value: order.noteId }],
    contained: [patient, practitioner, account, ...tests],
    extension: [
      { url: `${HG_EXT}/requestgroup-authorizedBy`, valueReference: { reference: `Organization/${config.authorizedBy}` } },
      { url: `${HG_EXT}/requestgroup-account`, valueReference: { reference: '#account' } },
      { url: `${HG_EXT}/requestgroup-performer`, valueReference: { reference: `Organization/${config.performer}` } },
      {
        url: `${HG_EXT}/requestgroup-requester`,
        extension: [
          { url: 'agent', valueReference: { reference: '#practitioner' } },
          { url: 'onBehalfOf', valueReference: { reference: `Organization/${config.authorizedBy}` } },
        ],
      },
      { url: `${HG_EXT}/requestgroup-deliveryOptions`, extension: [{ url: 'electronic', valueBoolean: true }] },
    ],
    status: 'active',
    intent: 'order',
    subject: { reference: '#patient' },
    author: { reference: '#practitioner' },
    authoredOn: order.authoredOn,
    action: tests.map((t) => ({ resource: { reference: `#${t.id}`, display: t.code.text } })),
  };
}

export class HealthGorillaClient {
  private token: { value: string; until: number } | undefined;

  constructor(
    readonly config: HealthGorillaConfig,
    private readonly exchange: HttpExchange = fetchExchange,
    private readonly now: () => number = Date.now,
  ) {}

  private url(path: string): string {
    return `${this.config.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private async send(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{ status: number; body: string }> {
    try {
      return await this.exchange(url, init);
    } catch (error) {
      throw new LabProviderError('unavailable', [(error as Error)?.name ?? 'NetworkError']);
    }
  }

  async accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    const form = new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      client_id: this.config.clientId,
      assertion: bearerAssertion(this.config, this.now()),
      scope: this.config.scopes,
    });
    const answer = await this.send(this.url('/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    if (answer.status >= 500) throw new LabProviderError('unavailable', [], answer.status);
    if (answer.status >= 300) throw new LabProviderError('unauthorized', [], answer.status);
    const parsed = JSON.parse(answer.body) as { access_token?: string; expires_in?: number };
    if (!parsed.access_token) throw new LabProviderError('unauthorized', ['no access_token'], answer.status);
    // Renewed a minute early, so a call never carries a token that expires on the way.
    this.token = { value: parsed.access_token, until: this.now() + Math.max(0, (parsed.expires_in ?? 300) - 60) * 1000 };
    return parsed.access_token;
  }

  private async fhir(method: 'GET' | 'POST', path: string, body?: Json): Promise<Json> {
    const token = await this.accessToken();
    const answer = await this.send(this.url(`/fhir/R4${path}`), {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json', ...(body ? { 'content-type': 'application/fhir+json' } : {}) },
      body: body ? JSON.stringify(body) : '',
    });
    if (answer.status === 401 || answer.status === 403) {
      this.token = undefined;
      throw new LabProviderError('unauthorized', issuesOf(answer.body), answer.status);
    }
    if (answer.status >= 500) throw new LabProviderError('unavailable', issuesOf(answer.body), answer.status);
    if (answer.status >= 300) throw new LabProviderError('refused', issuesOf(answer.body), answer.status);
    return (answer.body ? JSON.parse(answer.body) : {}) as Json;
  }

  /** The Practitioner Health Gorilla knows by this NPI: its id, or null when there is none. */
  async practitionerIdByNpi(npi: string): Promise<string | null> {
    const bundle = (await this.fhir('GET', `/Practitioner?identifier=${encodeURIComponent(`${NPI_SYSTEM}|${npi}`)}`)) as {
      entry?: { resource?: { id?: string } }[];
    };
    return bundle.entry?.[0]?.resource?.id ?? null;
  }

  async placeOrder(order: LabOrderInput): Promise<PlacedOrder> {
    const created = (await this.fhir('POST', '/RequestGroup', buildRequestGroup(this.config, order))) as {
      id?: string;
      status?: string;
      contained?: { resourceType?: string; requisition?: { value?: string } }[];
      action?: { resource?: { display?: string } }[];
    };
    if (!created.id) throw new LabProviderError('unavailable', ['no RequestGroup id']);
    const requisition = created.contained?.find((r) => r.resourceType === 'ServiceRequest' && r.requisition?.value)?.requisition?.value ?? '';
    return {
      hgId: created.id,
      requisition,
      status: created.status ?? 'active',
      actions: (created.action ?? []).map((a) => ({ display: a.resource?.display ?? '' })),
    };
  }

  /**
   * The report as Health Gorilla holds it now (`GET /fhir/R4/DiagnosticReport/<id>`), or null when
   * it has none by that id (404, or 410 for one it deleted). A delivery is applied from this copy,
   * so a body that passed the Subscription's header check still cannot put its own values in a chart.
   */
  async reportById(id: string): Promise<Json | null> {
    if (!FHIR_ID.test(id)) return null;
    try {
      const report = await this.fhir('GET', `/DiagnosticReport/${encodeURIComponent(id)}`);
      return report.resourceType === 'DiagnosticReport' && report.id === id ? report : null;
    } catch (error) {
      if (error instanceof LabProviderError && error.kind === 'refused' && (error.status === 404 || error.status === 410)) return null;
      throw error;
    }
  }

  /** Polling: the reports Health Gorilla holds for an order so far. */
  async reportsFor(hgId: string): Promise<Json[]> {
    const bundle = (await this.fhir('GET', `/DiagnosticReport?based-on=${encodeURIComponent(`RequestGroup/${hgId}`)}`)) as { entry?: { resource?: Json }[] };
    return (bundle.entry ?? []).map((e) => e.resource).filter((r): r is Json => Boolean(r));
  }
}

export interface ParsedReport {
  reportId: string;
  /** The RequestGroup id the report answers. */
  hgId: string;
  status: string;
  issued?: string;
  panel: string;
  collectedAt?: string;
  items: LabResultItem[];
  /** Identifies this version of the report: a delivery of the same version changes nothing. */
  version: string;
}

interface FhirObservation {
  resourceType?: string;
  id?: string;
  code?: { coding?: { code?: string; display?: string }[]; text?: string };
  valueQuantity?: { value?: number; unit?: string };
  valueString?: string;
  interpretation?: { coding?: { code?: string }[]; text?: string }[];
  referenceRange?: { low?: { value?: number }; high?: { value?: number } }[];
  issued?: string;
  effectiveDateTime?: string;
}

/** A DiagnosticReport as Health Gorilla sends it → the lab note's result items (spec notes §2). */
export function parseDiagnosticReport(resource: unknown): ParsedReport | null {
  const r = resource as {
    resourceType?: string;
    id?: string;
    meta?: { versionId?: string; lastUpdated?: string };
    status?: string;
    issued?: string;
    effectiveDateTime?: string;
    code?: { text?: string; coding?: { display?: string }[] };
    basedOn?: { reference?: string }[];
    contained?: FhirObservation[];
    result?: { reference?: string }[];
    performer?: { display?: string }[];
    subject?: { reference?: string; display?: string };
  };
  if (!r || r.resourceType !== 'DiagnosticReport' || typeof r.id !== 'string') return null;
  const hgId = (r.basedOn ?? [])
    .map((b) => b.reference ?? '')
    .find((ref) => ref.startsWith('RequestGroup/'))
    ?.slice('RequestGroup/'.length);
  if (!hgId) return null;
  const observations = new Map((r.contained ?? []).filter((c) => c.resourceType === 'Observation' && c.id).map((c) => [`#${c.id}`, c]));
  const ordered = (r.result ?? []).map((ref) => observations.get(ref.reference ?? '')).filter((o): o is FhirObservation => Boolean(o));
  const panel = r.code?.text ?? r.code?.coding?.[0]?.display ?? '';
  const items: LabResultItem[] = (ordered.length ? ordered : [...observations.values()]).map((o) => {
    const coding = o.code?.coding?.[0];
    const q = o.valueQuantity;
    return {
      id: `${r.id}/${o.id}`,
      text: o.code?.text ?? coding?.display ?? coding?.code ?? '',
      code: coding?.code ?? '',
      ...(coding?.display ? { codeText: coding.display } : {}),
      ...(o.interpretation?.[0]?.coding?.[0]?.code ? { interpretation: o.interpretation[0].coding[0].code } : {}),
      ...(o.issued || r.issued ? { issued: o.issued ?? r.issued } : {}),
      ...(o.referenceRange?.length
        ? {
            ranges: o.referenceRange.map((rr) => ({
              ...(typeof rr.low?.value === 'number' ? { low: rr.low.value } : {}),
              ...(typeof rr.high?.value === 'number' ? { high: rr.high.value } : {}),
            })),
          }
        : {}),
      ...(q && typeof q.value === 'number' ? { valueQuantity: { value: q.value, ...(q.unit ? { unit: q.unit } : {}) } } : {}),
      ...(typeof o.valueString === 'string' ? { valueString: o.valueString } : {}),
      ...(r.subject?.display ? { subject: r.subject.display } : {}),
      ...(r.performer?.[0]?.display ? { performer: r.performer[0].display } : {}),
      reportId: r.id!,
      panel,
    };
  });
  return {
    reportId: r.id,
    hgId,
    status: r.status ?? 'final',
    ...(r.issued ? { issued: r.issued } : {}),
    ...(r.effectiveDateTime ? { collectedAt: r.effectiveDateTime } : {}),
    panel,
    items,
    version: r.meta?.versionId ?? r.meta?.lastUpdated ?? r.issued ?? '1',
  };
}

/** HEALTH_GORILLA_* from the stack (practices/<slug>.json `labs`), or null when the practice has none. */
export function healthGorillaConfigFromEnv(clientSecret: string | null, env = process.env): HealthGorillaConfig | null {
  const baseUrl = env.HEALTH_GORILLA_URL;
  if (!baseUrl || !clientSecret || !env.HEALTH_GORILLA_CLIENT_ID) return null;
  return {
    baseUrl,
    clientId: env.HEALTH_GORILLA_CLIENT_ID,
    clientSecret,
    clientUri: env.HEALTH_GORILLA_CLIENT_URI ?? '',
    userLogin: env.HEALTH_GORILLA_USER_LOGIN ?? '',
    scopes: env.HEALTH_GORILLA_SCOPES ?? 'user/*.* patient/*.read',
    authorizedBy: env.HEALTH_GORILLA_AUTHORIZED_BY ?? '',
    performer: env.HEALTH_GORILLA_PERFORMER ?? '',
    local: env.HEALTH_GORILLA_LOCAL === '1',
  };
}

/** The client secret lives in the partner secrets under this key; the Subscription's header token under HEALTH_GORILLA_PARTNER_ID. */
export const HEALTH_GORILLA_CLIENT_SECRET_ID = 'health-gorilla-client';
