import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bearerAssertion,
  buildRequestGroup,
  HealthGorillaClient,
  HG_ORDER_PROFILE,
  JWT_BEARER_GRANT,
  LabProviderError,
  parseDiagnosticReport,
  verifyAssertion,
} from './health-gorilla.js';

const config = {
  baseUrl: 'https://sandbox.healthgorilla.com',
  clientId: 'client-1',
  clientSecret: 'secret-of-at-least-sixteen',
  clientUri: 'https://practice.example/hg',
  userLogin: 'practice-login',
  scopes: 'user/*.*',
  authorizedBy: 'org-practice',
  performer: 'org-lab',
};

const order = {
  noteId: 'note-1',
  tests: [
    { code: '24323-8' as const, display: 'Comprehensive metabolic panel (CMP)' },
    { code: '58410-2' as const, display: 'Complete blood count (CBC) with automated differential' },
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
  provider: { resourceId: 'f-4f0235627ac2d59b49e5575c', name: 'Daniel Okafor', npi: '1467582930' },
  authoredOn: '2026-11-26T10:00:00.000Z',
};

type Call = { url: string; method: string; headers: Record<string, string>; body: string };

function recorder(answers: ((call: Call) => { status: number; body: string })[]) {
  const calls: Call[] = [];
  const exchange = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
    const call = { url, ...init };
    calls.push(call);
    const next = answers.shift();
    if (!next) throw new Error(`unexpected call ${url}`);
    return next(call);
  };
  return { calls, exchange };
}

const token = () => ({ status: 200, body: JSON.stringify({ access_token: 'at-1', token_type: 'bearer', expires_in: 3600, scope: 'user/*.*' }) });

describe('Health Gorilla token (OAuth 2.0 JWT bearer grant)', () => {
  it('signs an HS256 JWT with the client secret: iss the client URI, sub the user login, aud the token URL', () => {
    const jwt = bearerAssertion(config, Date.UTC(2026, 10, 26));
    const [head, body, sig] = jwt.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(body!, 'base64url').toString())).toMatchObject({
      iss: config.clientUri,
      sub: 'practice-login',
      aud: 'https://sandbox.healthgorilla.com/oauth/token',
    });
    expect(sig).toBe(createHmac('sha256', config.clientSecret).update(`${head}.${body}`).digest('base64url'));
    expect(verifyAssertion(jwt, config.clientSecret, Date.UTC(2026, 10, 26))).toMatchObject({ sub: 'practice-login' });
    expect(verifyAssertion(jwt, 'another-secret-entirely', Date.UTC(2026, 10, 26))).toBeNull();
    expect(verifyAssertion(jwt, config.clientSecret, Date.UTC(2026, 10, 27))).toBeNull();
  });

  it('posts the grant form to /oauth/token and reuses the token until it nearly expires', async () => {
    const { calls, exchange } = recorder([
      token,
      () => ({
        status: 200,
        body: JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [{ resource: { resourceType: 'Practitioner', id: 'f-4f02' } }] }),
      }),
      () => ({ status: 200, body: JSON.stringify({ resourceType: 'Bundle', type: 'searchset', total: 0 }) }),
    ]);
    const client = new HealthGorillaClient(config, exchange);
    expect(await client.practitionerIdByNpi('1467582930')).toBe('f-4f02');
    expect(await client.practitionerIdByNpi('1000000004')).toBeNull();
    expect(calls).toHaveLength(3);
    expect(calls[0]!.url).toBe('https://sandbox.healthgorilla.com/oauth/token');
    const form = new URLSearchParams(calls[0]!.body);
    expect(form.get('grant_type')).toBe(JWT_BEARER_GRANT);
    expect(form.get('client_id')).toBe('client-1');
    expect(form.get('assertion')!.split('.')).toHaveLength(3);
    expect(calls[1]!.url).toBe('https://sandbox.healthgorilla.com/fhir/R4/Practitioner?identifier=http%3A%2F%2Fhl7.org%2Ffhir%2Fsid%2Fus-npi%7C1467582930');
    expect(calls[1]!.headers.authorization).toBe('Bearer at-1');
  });
});

describe('Health Gorilla order (POST /fhir/R4/RequestGroup)', () => {
  it('sends an hg-order RequestGroup with the patient, the practitioner, the account and one ServiceRequest per test contained', () => {
    const rg = buildRequestGroup(config, order) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(rg.resourceType).toBe('RequestGroup');
    expect(rg.meta.profile).toEqual([HG_ORDER_PROFILE]);
    expect(rg.intent).toBe('order');
    expect(rg.subject).toEqual({ reference: '#patient' });
    const byId = Object.fromEntries((rg.contained as { id: string }[]).map((c) => [c.id, c]));
    expect(byId.patient).toMatchObject({ resourceType: 'Patient', gender: 'female', birthDate: '1980-02-03', name: [{ family: 'Lopez', given: ['Ana'] }] });
    expect(byId.practitioner).toMatchObject({
      resourceType: 'Practitioner',
      identifier: [
        { system: 'https://www.healthgorilla.com', value: 'f-4f0235627ac2d59b49e5575c' },
        { system: 'http://hl7.org/fhir/sid/us-npi', value: '1467582930' },
      ],
    });
    expect(byId.labtest0).toMatchObject({
      resourceType: 'ServiceRequest',
      code: { coding: [{ system: 'http://loinc.org', code: '24323-8' }] },
      subject: { reference: '#patient' },
    });
    expect(rg.action).toEqual([
      { resource: { reference: '#labtest0', display: 'Comprehensive metabolic panel (CMP)' } },
      { resource: { reference: '#labtest1', display: 'Complete blood count (CBC) with automated differential' } },
    ]);
    const urls = (rg.extension as { url: string }[]).map((e) => e.url.split('/').pop());
    expect(urls).toEqual([
      'requestgroup-authorizedBy',
      'requestgroup-account',
      'requestgroup-performer',
      'requestgroup-requester',
      'requestgroup-deliveryOptions',
    ]);
  });

  it('reads the created RequestGroup (id, requisition), and maps an OperationOutcome to a refusal with its diagnostics', async () => {
    const created = (call: Call) => {
      const rg = JSON.parse(call.body) as { contained: Record<string, unknown>[]; action: unknown[] };
      return {
        status: 201,
        body: JSON.stringify({
          ...rg,
          id: 'rg-9',
          status: 'active',
          contained: rg.contained.map((c) => (c.resourceType === 'ServiceRequest' ? { ...c, requisition: { value: 'REQ123' } } : c)),
        }),
      };
    };
    const refused = () => ({
      status: 422,
      body: JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid', diagnostics: 'Patient is missing birthDate' }] }),
    });
    const { calls, exchange } = recorder([token, created, refused, () => ({ status: 503, body: '' })]);
    const client = new HealthGorillaClient(config, exchange);
    const placed = await client.placeOrder(order);
    expect(placed).toEqual({
      hgId: 'rg-9',
      requisition: 'REQ123',
      status: 'active',
      actions: [{ display: 'Comprehensive metabolic panel (CMP)' }, { display: 'Complete blood count (CBC) with automated differential' }],
    });
    expect(calls[1]).toMatchObject({
      url: 'https://sandbox.healthgorilla.com/fhir/R4/RequestGroup',
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
    });
    await expect(client.placeOrder(order)).rejects.toMatchObject({ kind: 'refused', issues: ['Patient is missing birthDate'] });
    await expect(client.placeOrder(order)).rejects.toBeInstanceOf(LabProviderError);
  });
});

describe('Health Gorilla results (DiagnosticReport with contained Observations)', () => {
  it('becomes result items: text, code, interpretation, ranges, value and unit or string', () => {
    const parsed = parseDiagnosticReport({
      resourceType: 'DiagnosticReport',
      id: 'dr-1',
      meta: { versionId: '2' },
      status: 'final',
      code: { text: 'Comprehensive metabolic panel' },
      basedOn: [{ reference: 'RequestGroup/rg-9' }],
      issued: '2026-11-26T12:00:00Z',
      effectiveDateTime: '2026-11-26T09:00:00Z',
      performer: [{ display: 'Quest Diagnostics' }],
      contained: [
        {
          resourceType: 'Observation',
          id: 'o1',
          code: { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }], text: 'Glucose' },
          valueQuantity: { value: 128, unit: 'mg/dL' },
          interpretation: [{ coding: [{ code: 'H' }] }],
          referenceRange: [{ low: { value: 70 }, high: { value: 99 } }],
        },
        { resourceType: 'Observation', id: 'o2', code: { coding: [{ code: '5778-6', display: 'Color of Urine' }] }, valueString: 'Yellow' },
      ],
      result: [{ reference: '#o1' }, { reference: '#o2' }],
    });
    expect(parsed).toMatchObject({ reportId: 'dr-1', hgId: 'rg-9', status: 'final', version: '2', collectedAt: '2026-11-26T09:00:00Z' });
    expect(parsed!.items).toEqual([
      {
        id: 'dr-1/o1',
        text: 'Glucose',
        code: '2345-7',
        codeText: 'Glucose',
        interpretation: 'H',
        issued: '2026-11-26T12:00:00Z',
        ranges: [{ low: 70, high: 99 }],
        valueQuantity: { value: 128, unit: 'mg/dL' },
        performer: 'Quest Diagnostics',
        reportId: 'dr-1',
        panel: 'Comprehensive metabolic panel',
      },
      {
        id: 'dr-1/o2',
        text: 'Color of Urine',
        code: '5778-6',
        codeText: 'Color of Urine',
        issued: '2026-11-26T12:00:00Z',
        valueString: 'Yellow',
        performer: 'Quest Diagnostics',
        reportId: 'dr-1',
        panel: 'Comprehensive metabolic panel',
      },
    ]);
    expect(parseDiagnosticReport({ resourceType: 'Observation', id: 'x' })).toBeNull();
    expect(parseDiagnosticReport({ resourceType: 'DiagnosticReport', id: 'x' })).toBeNull();
  });
});

describe('Health Gorilla report read-back', () => {
  it('reads a delivered report by id with the OAuth token; an id it does not know (404, 410) or a path-like id is null, an outage throws', async () => {
    const report = { resourceType: 'DiagnosticReport', id: 'dr-1', basedOn: [{ reference: 'RequestGroup/rg-1' }] };
    const { calls, exchange } = recorder([
      token,
      () => ({ status: 200, body: JSON.stringify(report) }),
      () => ({ status: 404, body: JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ diagnostics: 'not found' }] }) }),
      () => ({ status: 410, body: '' }),
      () => ({ status: 503, body: '' }),
    ]);
    const client = new HealthGorillaClient(config, exchange);
    expect(await client.reportById('dr-1')).toEqual(report);
    expect(calls[1]).toMatchObject({
      url: 'https://sandbox.healthgorilla.com/fhir/R4/DiagnosticReport/dr-1',
      method: 'GET',
      headers: { authorization: 'Bearer at-1' },
    });
    expect(await client.reportById('dr-unknown')).toBeNull();
    expect(await client.reportById('dr-deleted')).toBeNull();
    // Never sent: an id that is not a FHIR id cannot reach another path.
    expect(await client.reportById('../RequestGroup/rg-1')).toBeNull();
    await expect(client.reportById('dr-2')).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
    expect(calls).toHaveLength(5);
  });
});
