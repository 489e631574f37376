import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HG_EXT,
  HG_ORDER_PROFILE,
  HG_SYSTEM,
  JWT_BEARER_GRANT,
  LOINC,
  NPI_SYSTEM,
  verifyAssertion,
  HEALTH_GORILLA_CLIENT_SECRET_ID,
} from '../../../functions/lib/adapters/health-gorilla.js';
import { HEALTH_GORILLA_PARTNER_ID, LAB_TESTS, LOCAL_LAB_PROVIDER_LABEL } from '../../../shared/labs/lab-schema.js';
import { runtimeError } from '../runtime-log.js';

/**
 * Health Gorilla's local stand-in for `npm start` (labelled so in the app): the same OAuth JWT
 * bearer token call and FHIR R4 resources as the vendor, the same refusals (an order without its
 * patient or ordering provider, an unknown test, a provider not enrolled), and after a short delay
 * a result set built for the tests ordered (a CMP, a CBC, … with some values out of range, and a
 * critical one for a test patient whose last name begins with "Critical"),
 * delivered as Health Gorilla does: each DiagnosticReport POSTed to the practice's Subscription
 * endpoint with the header the Subscription names, readable by id (`GET DiagnosticReport/<id>`,
 * which the practice does for each notification) and by polling. Nothing here exists
 * in a deployed stack.
 */
export const LOCAL_HG_PATH = '/local/health-gorilla';
export const LOCAL_HG_CLIENT_ID = 'tidewell-local';
export const LOCAL_HG_CLIENT_URI = 'https://tidewell.local/health-gorilla';
export const LOCAL_HG_USER_LOGIN = 'practice@tidewell.local';
export const LOCAL_HG_PRACTICE_ORG = 'org-tidewell-local';
export const LOCAL_HG_LAB_ORG = 'org-local-reference-lab';

export interface LocalHealthGorillaOptions {
  /** `<data folder>/partner-secrets.json`: the client secret and the Subscription's header token. */
  secretsFile: string;
  /** Where the practice's Subscription endpoint (the API) is reached from this process. */
  apiUrl: string;
  /** NPIs of the providers enrolled in the practice's Health Gorilla account. */
  enrolledNpis: readonly string[];
  /** How long the lab takes before results go out (ms). */
  resultDelayMs?: number;
}

interface Analyte {
  code: string;
  text: string;
  unit: string;
  low?: number;
  high?: number;
  /** Typical value, around which a result is drawn. */
  typical: number;
  /** Decimals the lab reports. */
  decimals: number;
  /** A result reported in words (a dipstick, a rapid antigen): the normal one and the one a lab flags. */
  qualitative?: { normal: string; abnormal: string };
  /** Never drawn out of range: a sandbox's 1.8 × upper limit would be no urine's specific gravity or pH. */
  steady?: boolean;
}

const CMP: Analyte[] = [
  { code: '2345-7', text: 'Glucose', unit: 'mg/dL', low: 70, high: 99, typical: 88, decimals: 0 },
  { code: '3094-0', text: 'Urea nitrogen (BUN)', unit: 'mg/dL', low: 7, high: 20, typical: 14, decimals: 0 },
  { code: '2160-0', text: 'Creatinine', unit: 'mg/dL', low: 0.6, high: 1.3, typical: 0.92, decimals: 2 },
  { code: '2951-2', text: 'Sodium', unit: 'mmol/L', low: 135, high: 145, typical: 140, decimals: 0 },
  { code: '2823-3', text: 'Potassium', unit: 'mmol/L', low: 3.5, high: 5.1, typical: 4.2, decimals: 1 },
  { code: '2075-0', text: 'Chloride', unit: 'mmol/L', low: 98, high: 107, typical: 102, decimals: 0 },
  { code: '2028-9', text: 'Carbon dioxide (CO2)', unit: 'mmol/L', low: 22, high: 29, typical: 25, decimals: 0 },
  { code: '17861-6', text: 'Calcium', unit: 'mg/dL', low: 8.6, high: 10.3, typical: 9.4, decimals: 1 },
  { code: '2885-2', text: 'Protein, total', unit: 'g/dL', low: 6.0, high: 8.3, typical: 7.1, decimals: 1 },
  { code: '1751-7', text: 'Albumin', unit: 'g/dL', low: 3.5, high: 5.0, typical: 4.3, decimals: 1 },
  { code: '1975-2', text: 'Bilirubin, total', unit: 'mg/dL', low: 0.1, high: 1.2, typical: 0.6, decimals: 1 },
  { code: '6768-6', text: 'Alkaline phosphatase', unit: 'U/L', low: 44, high: 147, typical: 80, decimals: 0 },
  { code: '1742-6', text: 'ALT', unit: 'U/L', low: 7, high: 56, typical: 24, decimals: 0 },
  { code: '1920-8', text: 'AST', unit: 'U/L', low: 10, high: 40, typical: 22, decimals: 0 },
];
const CBC = (female: boolean): Analyte[] => [
  { code: '6690-2', text: 'WBC', unit: '10*3/uL', low: 4.5, high: 11.0, typical: 6.8, decimals: 1 },
  { code: '789-8', text: 'RBC', unit: '10*6/uL', low: female ? 3.9 : 4.3, high: female ? 5.2 : 5.9, typical: female ? 4.5 : 5.0, decimals: 2 },
  { code: '718-7', text: 'Hemoglobin', unit: 'g/dL', low: female ? 12.0 : 13.5, high: female ? 15.5 : 17.5, typical: female ? 13.6 : 15.2, decimals: 1 },
  { code: '4544-3', text: 'Hematocrit', unit: '%', low: female ? 35.5 : 38.3, high: female ? 44.9 : 48.6, typical: female ? 40.1 : 44.0, decimals: 1 },
  { code: '787-2', text: 'MCV', unit: 'fL', low: 80, high: 100, typical: 89, decimals: 0 },
  { code: '777-3', text: 'Platelets', unit: '10*3/uL', low: 150, high: 400, typical: 255, decimals: 0 },
  { code: '770-8', text: 'Neutrophils', unit: '%', low: 40, high: 70, typical: 56, decimals: 0 },
  { code: '736-9', text: 'Lymphocytes', unit: '%', low: 20, high: 40, typical: 31, decimals: 0 },
];
const LIPIDS: Analyte[] = [
  { code: '2093-3', text: 'Cholesterol, total', unit: 'mg/dL', high: 199, typical: 182, decimals: 0 },
  { code: '2571-8', text: 'Triglycerides', unit: 'mg/dL', high: 149, typical: 110, decimals: 0 },
  { code: '2085-9', text: 'HDL cholesterol', unit: 'mg/dL', low: 40, typical: 52, decimals: 0 },
  { code: '13457-7', text: 'LDL cholesterol (calculated)', unit: 'mg/dL', high: 99, typical: 96, decimals: 0 },
];
/** A BMP is the CMP's first eight: glucose, BUN, creatinine, sodium, potassium, chloride, CO2, calcium. */
const BMP: Analyte[] = CMP.slice(0, 8);
/** Urinalysis: the dipstick as a lab reports it (LOINC's urine test-strip codes). */
const URINALYSIS: Analyte[] = [
  { code: '5811-5', text: 'Specific gravity', unit: '1', low: 1.005, high: 1.03, typical: 1.018, decimals: 3, steady: true },
  { code: '5803-2', text: 'pH', unit: '[pH]', low: 5.0, high: 8.0, typical: 6.0, decimals: 1, steady: true },
  { code: '5804-0', text: 'Protein', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: '1+ (30 mg/dL)' } },
  { code: '5792-7', text: 'Glucose', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: '2+ (250 mg/dL)' } },
  { code: '5797-6', text: 'Ketones', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: 'Trace (5 mg/dL)' } },
  { code: '5794-3', text: 'Blood (hemoglobin)', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: '1+ (small)' } },
  { code: '5799-2', text: 'Leukocyte esterase', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: '2+ (moderate)' } },
  { code: '5802-4', text: 'Nitrite', unit: '', typical: 0, decimals: 0, qualitative: { normal: 'Negative', abnormal: 'Positive' } },
];
const STREP: Analyte[] = [
  {
    code: '78012-2',
    text: 'Group A Streptococcus antigen (rapid), throat',
    unit: '',
    typical: 0,
    decimals: 0,
    qualitative: { normal: 'Not detected', abnormal: 'Detected' },
  },
];
const FREE_T4: Analyte[] = [{ code: '3024-7', text: 'Free T4', unit: 'ng/dL', low: 0.8, high: 1.8, typical: 1.2, decimals: 2 }];
/** 30–100 ng/mL sufficient (Endocrine Society); below 30 is reported low. */
const VITAMIN_D: Analyte[] = [{ code: '62292-8', text: 'Vitamin D, 25-hydroxy (D2 + D3)', unit: 'ng/mL', low: 30, high: 100, typical: 38, decimals: 0 }];
const PSA: Analyte[] = [{ code: '2857-1', text: 'PSA, total', unit: 'ng/mL', high: 4.0, typical: 1.1, decimals: 2 }];
const B12: Analyte[] = [{ code: '2132-9', text: 'Vitamin B12', unit: 'pg/mL', low: 232, high: 1245, typical: 520, decimals: 0 }];
const FERRITIN = (female: boolean): Analyte[] => [
  { code: '2276-4', text: 'Ferritin', unit: 'ng/mL', low: female ? 15 : 30, high: female ? 150 : 400, typical: female ? 60 : 140, decimals: 0 },
];
const A1C: Analyte[] = [{ code: '4548-4', text: 'Hemoglobin A1c', unit: '%', low: 4.0, high: 5.6, typical: 5.3, decimals: 1 }];
const TSH: Analyte[] = [{ code: '3016-3', text: 'TSH', unit: 'mIU/L', low: 0.4, high: 4.0, typical: 1.9, decimals: 2 }];

function panelAnalytes(code: string, female: boolean): Analyte[] {
  switch (code) {
    case '24323-8':
      return CMP;
    case '58410-2':
      return CBC(female);
    case '57698-3':
      return LIPIDS;
    case '4548-4':
      return A1C;
    case '3016-3':
      return TSH;
    case '51990-0':
      return BMP;
    case '24356-8':
      return URINALYSIS;
    case '78012-2':
      return STREP;
    case '3024-7':
      return FREE_T4;
    case '62292-8':
      return VITAMIN_D;
    case '2857-1':
      return PSA;
    case '2132-9':
      return B12;
    case '2276-4':
      return FERRITIN(female);
    default:
      return [];
  }
}

/** Deterministic per order and analyte, so a redelivery carries the same values. */
function unit(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 0xffffffff;
}

const round = (v: number, d: number) => Number(v.toFixed(d));

/**
 * A patient whose last name begins with "Critical" (a test patient, as labs' sandboxes have) gets
 * one critical value per panel, flagged HH or LL as a lab flags a panic value.
 */
export const CRITICAL_TEST_PATIENT = /^critical/i;

function observation(orderId: string, a: Analyte, index: number, outOfRange: 'H' | 'L' | 'HH' | 'LL' | null, issued: string, fixed?: number) {
  if (a.qualitative) {
    // Reported in words: flagged A (abnormal) as labs flag a positive screen; never a panic value.
    return {
      resourceType: 'Observation',
      id: `obs${index}`,
      status: 'final',
      code: { coding: [{ system: LOINC, code: a.code, display: a.text }], text: a.text },
      valueString: outOfRange ? a.qualitative.abnormal : a.qualitative.normal,
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: outOfRange ? 'A' : 'N' }] }],
      referenceRange: [{ text: a.qualitative.normal }],
      issued,
    };
  }
  const u = unit(`${orderId}:${a.code}`);
  let value: number;
  if (fixed !== undefined) value = fixed;
  else if (outOfRange === 'HH') value = (a.high ?? a.typical) * (1.8 + u * 0.2);
  else if (outOfRange === 'LL') value = (a.low ?? a.typical) * (0.4 + u * 0.1);
  else if (outOfRange === 'H') value = (a.high ?? a.typical) * (1.12 + u * 0.3);
  else if (outOfRange === 'L') value = (a.low ?? a.typical) * (0.7 + u * 0.15);
  else {
    const lo = a.low ?? a.typical * 0.8;
    const hi = a.high ?? a.typical * 1.1;
    value = a.typical + (u - 0.5) * (hi - lo) * 0.4;
  }
  value = round(value, a.decimals);
  // A value meant to be out of range stays out after the lab's rounding (a low bilirubin of 0.07 reads 0.1).
  const step = 10 ** -a.decimals;
  if (outOfRange === 'L' && a.low !== undefined && value >= a.low)
    value = a.low - step >= 0 ? round(a.low - step, a.decimals) : round((a.high ?? a.typical) + step, a.decimals);
  if (outOfRange === 'H' && a.high !== undefined && value <= a.high) value = round(a.high + step, a.decimals);
  const interpretation =
    outOfRange === 'HH' || outOfRange === 'LL' ? outOfRange : a.high !== undefined && value > a.high ? 'H' : a.low !== undefined && value < a.low ? 'L' : 'N';
  return {
    resourceType: 'Observation',
    id: `obs${index}`,
    status: 'final',
    code: { coding: [{ system: LOINC, code: a.code, display: a.text }], text: a.text },
    valueQuantity: { value, unit: a.unit, system: 'http://unitsofmeasure.org', code: a.unit },
    interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: interpretation }] }],
    referenceRange: [
      { ...(a.low !== undefined ? { low: { value: a.low, unit: a.unit } } : {}), ...(a.high !== undefined ? { high: { value: a.high, unit: a.unit } } : {}) },
    ],
    issued,
  };
}

interface StoredOrder {
  id: string;
  requestGroup: Record<string, unknown>;
  tests: string[];
  female: boolean;
  patientName: string;
  /** The patient is a critical-value test patient (CRITICAL_TEST_PATIENT). */
  critical: boolean;
  reports: Record<string, unknown>[];
  timer?: NodeJS.Timeout;
  /** The delivery under way, which a later one waits for. */
  delivering?: Promise<unknown>;
}

type Json = Record<string, unknown>;

/** A draw's results as the sandbox is told to report them: LOINC code → value, and when. */
interface ScriptedDraw {
  values: Record<string, number>;
  issued: string;
  collected?: string;
}

const outcome = (diagnostics: string[], code = 'invalid') => ({
  resourceType: 'OperationOutcome',
  issue: diagnostics.map((d) => ({ severity: 'error', code, diagnostics: d })),
});

/** What Health Gorilla checks of an hg-order RequestGroup before it accepts it. */
export function validateOrder(rg: Json, enrolled: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  if (rg.resourceType !== 'RequestGroup') return ['Resource must be a RequestGroup'];
  const contained = (Array.isArray(rg.contained) ? rg.contained : []) as Json[];
  const byRef = (ref: unknown) => (typeof ref === 'string' && ref.startsWith('#') ? contained.find((c) => `#${String(c.id)}` === ref) : undefined);
  if (!((rg.meta as Json | undefined)?.profile as string[] | undefined)?.includes(HG_ORDER_PROFILE))
    problems.push(`meta.profile must include ${HG_ORDER_PROFILE}`);
  if (rg.intent !== 'order') problems.push('intent must be order');
  const patient = byRef((rg.subject as Json | undefined)?.reference);
  if (!patient || patient.resourceType !== 'Patient') problems.push('Patient is missing: subject must reference a contained Patient');
  else {
    const name = (patient.name as Json[] | undefined)?.[0];
    if (!name?.family) problems.push('Patient is missing family name');
    if (!(name?.given as string[] | undefined)?.[0]) problems.push('Patient is missing given name');
    if (!patient.birthDate) problems.push('Patient is missing birthDate');
    if (!patient.gender) problems.push('Patient is missing gender');
  }
  const ext = (Array.isArray(rg.extension) ? rg.extension : []) as Json[];
  const requester = ext.find((e) => e.url === `${HG_EXT}/requestgroup-requester`);
  const agentRef = ((requester?.extension as Json[] | undefined)?.find((e) => e.url === 'agent')?.valueReference as Json | undefined)?.reference;
  const practitioner = byRef(agentRef ?? (rg.author as Json | undefined)?.reference);
  if (!practitioner || practitioner.resourceType !== 'Practitioner')
    problems.push('Practitioner is missing: the requester agent must reference a contained Practitioner');
  else {
    const hgId = (practitioner.identifier as Json[] | undefined)?.find((i) => i.system === HG_SYSTEM)?.value;
    if (typeof hgId !== 'string' || !enrolled.has(hgId)) problems.push('Practitioner is not enrolled in this account');
  }
  if (!ext.some((e) => e.url === `${HG_EXT}/requestgroup-performer`)) problems.push('Performer (lab) is missing');
  if (!ext.some((e) => e.url === `${HG_EXT}/requestgroup-authorizedBy`)) problems.push('authorizedBy is missing');
  const actions = (Array.isArray(rg.action) ? rg.action : []) as Json[];
  if (actions.length === 0) problems.push('At least one test must be ordered');
  const known = new Set<string>(LAB_TESTS.map((t) => t.code));
  for (const action of actions) {
    const sr = byRef((action.resource as Json | undefined)?.reference);
    const code = ((sr?.code as Json | undefined)?.coding as Json[] | undefined)?.[0]?.code;
    if (!sr || sr.resourceType !== 'ServiceRequest') problems.push('Each action must reference a contained ServiceRequest');
    else if (typeof code !== 'string' || !known.has(code)) problems.push(`Test ${String(code)} is not in the lab's compendium`);
  }
  return problems;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createLocalHealthGorilla(opts: LocalHealthGorillaOptions) {
  const orders = new Map<string, StoredOrder>();
  const tokens = new Map<string, number>();
  const enrolled = new Map(opts.enrolledNpis.map((npi) => [npi, `prac-${npi}`]));
  const enrolledIds = new Set(enrolled.values());
  const secrets = () => JSON.parse(readFileSync(opts.secretsFile, 'utf8')) as Record<string, string>;
  const delay = opts.resultDelayMs ?? Number(process.env.LOCAL_LAB_RESULT_DELAY_MS ?? 4000);

  async function deliver(order: StoredOrder): Promise<number[]> {
    const token = secrets()[HEALTH_GORILLA_PARTNER_ID] ?? '';
    const statuses: number[] = [];
    for (const report of order.reports) {
      const answer = await fetch(`${opts.apiUrl}/v1/partner-deliveries/${HEALTH_GORILLA_PARTNER_ID}/results`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${token}` },
        body: JSON.stringify(report),
      });
      await answer.text();
      statuses.push(answer.status);
    }
    return statuses;
  }

  function results(order: StoredOrder, scripted?: ScriptedDraw): Promise<number[]> {
    clearTimeout(order.timer);
    const issued = scripted?.issued ?? new Date().toISOString();
    const collected = scripted?.collected ?? new Date(Date.parse(issued) - 60 * 60_000).toISOString();
    order.reports = order.tests.map((code, p) => {
      const test = LAB_TESTS.find((t) => t.code === code)!;
      const analytes = panelAnalytes(code, order.female);
      // Two analytes of each multi-analyte panel (one of a single-analyte one, every other order) come back out of range.
      const movable = analytes.map((a, i) => (a.steady ? -1 : i)).filter((i) => i >= 0);
      const pick = Math.floor(unit(`${order.id}:${code}:pick`) * movable.length);
      const flagged = new Map<number, 'H' | 'L' | 'HH' | 'LL'>();
      if (scripted) {
        // The values asked for, flagged by the reference range as any other value is.
      } else if (movable.length > 1) {
        const second = movable[(pick + 3) % movable.length]!;
        flagged.set(movable[pick]!, order.critical ? 'HH' : 'H');
        flagged.set(second, analytes[second]?.low !== undefined ? 'L' : 'H');
      } else if (order.critical) flagged.set(0, 'HH');
      else if (unit(`${order.id}:${code}:single`) > 0.5) flagged.set(0, 'H');
      const contained = analytes.map((a, i) => observation(order.id, a, i, flagged.get(i) ?? null, issued, scripted?.values[a.code]));
      const reportId = `dr-${order.id}-${p}`;
      return {
        resourceType: 'DiagnosticReport',
        id: reportId,
        // A draw asked for after the lab's own results went out corrects them, as a lab's corrected report does.
        meta: { versionId: scripted ? '2' : '1', lastUpdated: issued },
        status: 'final',
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
        code: { coding: [{ system: LOINC, code, display: test.display }], text: test.display },
        basedOn: [{ reference: `RequestGroup/${order.id}` }],
        subject: { reference: `Patient/pt-${order.id}`, display: order.patientName },
        effectiveDateTime: collected,
        issued,
        performer: [{ reference: `Organization/${LOCAL_HG_LAB_ORG}`, display: `Reference lab (${LOCAL_LAB_PROVIDER_LABEL})` }],
        contained,
        result: contained.map((o) => ({ reference: `#${o.id}` })),
      };
    });
    // After any delivery still under way, so the corrected report lands last.
    const sending = (order.delivering ?? Promise.resolve()).catch(() => undefined).then(() => deliver(order));
    order.delivering = sending;
    return sending;
  }

  const resultsLater = (order: StoredOrder) =>
    void results(order).catch((error: unknown) => runtimeError("Health Gorilla's local stand-in: delivering results failed", error));

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/fhir+json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));

  function authorized(req: IncomingMessage): boolean {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const until = tokens.get(token);
    return until !== undefined && until > Date.now();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_HG_PATH.length) || '/';
    if (req.method === 'POST' && path === '/oauth/token') {
      const form = new URLSearchParams(await readBody(req));
      const claims = verifyAssertion(form.get('assertion') ?? '', secrets()[HEALTH_GORILLA_CLIENT_SECRET_ID] ?? '');
      if (
        form.get('grant_type') !== JWT_BEARER_GRANT ||
        form.get('client_id') !== LOCAL_HG_CLIENT_ID ||
        !claims ||
        claims.iss !== LOCAL_HG_CLIENT_URI ||
        claims.sub !== LOCAL_HG_USER_LOGIN ||
        !String(claims.aud).endsWith('/oauth/token')
      ) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
        return;
      }
      const token = randomBytes(24).toString('hex');
      tokens.set(token, Date.now() + 3600_000);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 3600, scope: form.get('scope') ?? '' }));
      return;
    }
    // The sandbox's own control, as a lab's test environment has: results of an order with the
    // values and dates asked for (the demo's earlier draws), sent as any result is.
    const draw = /^\/sandbox\/RequestGroup\/([\w-]+)\/results$/.exec(path);
    if (req.method === 'POST' && draw) {
      const order = orders.get(draw[1]!);
      if (!order) return void send(res, 404, outcome(['RequestGroup not found'], 'not-found'));
      let body: ScriptedDraw;
      try {
        body = JSON.parse(await readBody(req)) as ScriptedDraw;
      } catch {
        return void send(res, 400, outcome(['Body is not JSON'], 'structure'));
      }
      if (!body || typeof body.values !== 'object' || Number.isNaN(Date.parse(String(body.issued))))
        return void send(res, 400, outcome(['values and issued are required']));
      return void send(res, 200, { statuses: await results(order, body) });
    }
    if (!path.startsWith('/fhir/R4/')) return void send(res, 404, outcome(['Not found'], 'not-found'));
    if (!authorized(req)) return void send(res, 401, outcome(['Invalid or expired access token'], 'security'));
    const resource = path.slice('/fhir/R4/'.length);
    if (req.method === 'GET' && resource === 'Practitioner') {
      const [system, npi] = (url.searchParams.get('identifier') ?? '').split('|');
      const id = system === NPI_SYSTEM && npi ? enrolled.get(npi) : undefined;
      return void send(res, 200, {
        resourceType: 'Bundle',
        type: 'searchset',
        total: id ? 1 : 0,
        entry: id ? [{ resource: { resourceType: 'Practitioner', id, identifier: [{ system: NPI_SYSTEM, value: npi }] } }] : [],
      });
    }
    if (req.method === 'POST' && resource === 'RequestGroup') {
      let rg: Json;
      try {
        rg = JSON.parse(await readBody(req)) as Json;
      } catch {
        return void send(res, 400, outcome(['Body is not JSON'], 'structure'));
      }
      const problems = validateOrder(rg, enrolledIds);
      if (problems.length) return void send(res, 422, outcome(problems));
      const id = randomUUID();
      const requisition = `LCL${unit(id).toFixed(8).slice(2)}`;
      const contained = (rg.contained as Json[]).map((c) =>
        c.resourceType === 'ServiceRequest' ? { ...c, requisition: { system: `${HG_SYSTEM}/requisition`, value: requisition } } : c,
      );
      const patient = contained.find((c) => c.resourceType === 'Patient')!;
      const name = (patient.name as Json[])[0]!;
      const created = { ...rg, id, meta: { ...(rg.meta as Json), versionId: '1', lastUpdated: new Date().toISOString() }, contained };
      const tests = (rg.action as Json[]).map((a) => {
        const sr = contained.find((c) => `#${String(c.id)}` === (a.resource as Json).reference)!;
        return String(((sr.code as Json).coding as Json[])[0]!.code);
      });
      const order: StoredOrder = {
        id,
        requestGroup: created,
        tests,
        female: patient.gender === 'female',
        patientName: `${String((name.given as string[])[0])} ${String(name.family)}`,
        critical: CRITICAL_TEST_PATIENT.test(String(name.family)),
        reports: [],
      };
      orders.set(id, order);
      order.timer = setTimeout(() => resultsLater(order), delay);
      return void send(res, 201, created, { location: `${LOCAL_HG_PATH}/fhir/R4/RequestGroup/${id}/_history/1` });
    }
    const one = /^RequestGroup\/([\w-]+)$/.exec(resource);
    if (req.method === 'GET' && one) {
      const order = orders.get(one[1]!);
      return void (order
        ? send(res, 200, { ...order.requestGroup, status: order.reports.length ? 'completed' : 'active' })
        : send(res, 404, outcome(['RequestGroup not found'], 'not-found')));
    }
    // A read by id, as the practice does after each notification: the report as the lab holds it now.
    const report = /^DiagnosticReport\/([A-Za-z0-9\-.]{1,64})$/.exec(resource);
    if (req.method === 'GET' && report) {
      const found = [...orders.values()].flatMap((o) => o.reports).find((r) => r.id === report[1]);
      return void (found ? send(res, 200, found) : send(res, 404, outcome([`DiagnosticReport/${report[1]!} is not known`], 'not-found')));
    }
    if (req.method === 'GET' && resource === 'DiagnosticReport') {
      const based = (url.searchParams.get('based-on') ?? '').replace(/^RequestGroup\//, '');
      const reports = orders.get(based)?.reports ?? [];
      return void send(res, 200, { resourceType: 'Bundle', type: 'searchset', total: reports.length, entry: reports.map((r) => ({ resource: r })) });
    }
    // Health Gorilla sends a notification again when the endpoint's answer was lost; this resends one.
    const resend = /^RequestGroup\/([\w-]+)\/\$resend-notifications$/.exec(resource);
    if (req.method === 'POST' && resend) {
      const order = orders.get(resend[1]!);
      if (!order?.reports.length) return void send(res, 404, outcome(['No results to resend'], 'not-found'));
      return void send(res, 200, { statuses: await deliver(order) });
    }
    send(res, 404, outcome(['Not found'], 'not-found'));
  }

  return {
    handle: (req: IncomingMessage, res: ServerResponse) => {
      handle(req, res).catch((error: unknown) => {
        runtimeError("Health Gorilla's local stand-in failed", error);
        if (!res.headersSent) send(res, 500, outcome(['Internal error'], 'exception'));
      });
    },
    stop: () => {
      for (const order of orders.values()) clearTimeout(order.timer);
    },
  };
}
