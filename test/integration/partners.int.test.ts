import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverySignature } from '../../functions/lib/http/signed-delivery.js';
import { DELIVERY_HEADERS } from '../../shared/partners/partner-schema.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const run = Date.now().toString(36);
const LOCAL_PARTNER = 'local-care-plan';
let admin: string;
let employee: string;
let patientId: string;

function secretOf(partnerId: string): string {
  return (JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')) as Record<string, string>)[partnerId]!;
}

/** Sends a delivery signed as a partner would (README "Partner apps"). */
async function deliver(partnerId: string, kind: 'results' | 'notes', body: unknown, opts: { secret?: string; timestamp?: number } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const response = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${partnerId}/${kind}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [DELIVERY_HEADERS.timestamp]: timestamp,
      [DELIVERY_HEADERS.signature]: deliverySignature(opts.secret ?? secretOf(partnerId), timestamp, raw),
    },
    body: raw,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  [admin, employee] = await Promise.all([signIn('admin@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  const patient = await api(admin, 'POST', '/v1/patients', { firstName: 'Partna', lastName: `Deliver${run}`, gender: 'female', dob: '1980-04-02' });
  patientId = patient.body.id;
});

describe('partner apps list', () => {
  it('is read by every role, with the seeded local partner and the origins the CSP allows', async () => {
    const res = await api(employee, 'GET', '/v1/practices/partner-apps');
    expect(res.status).toBe(200);
    const local = res.body.partnerApps.find((a: { partnerAppId: string }) => a.partnerAppId === LOCAL_PARTNER);
    expect(local).toMatchObject({ name: 'Care Plan Builder', origin: stackEndpoints().partnerOrigin, noteType: 'PARTNER', active: true, local: true });
    expect(res.body.allowedOrigins).toContain(stackEndpoints().partnerOrigin);
  });

  it("names the membership windows' origin (the local membership stand-in under npm start), one the CSP frames", async () => {
    const partnerOrigin = stackEndpoints().partnerOrigin;
    for (const token of [employee, admin]) {
      const res = await api(token, 'GET', '/v1/practices/partner-apps');
      expect(res.body.membership).toEqual({ origin: partnerOrigin, local: true });
    }
    const page = await fetch(`${stackOutputs().webUrl}/config.json`);
    expect(page.headers.get('content-security-policy')).toMatch(new RegExp(`frame-src [^;]*${partnerOrigin.replace(/[.:/]/g, '\\$&')}`));
  });

  it("the local membership stand-in serves each window's page, framed only by the app, and keeps what it is given", async () => {
    const partnerOrigin = stackEndpoints().partnerOrigin;
    for (const [action, heading] of [
      ['open', 'Open membership'],
      ['charges', 'Create charges'],
      ['user', 'Create user'],
    ] as const) {
      const res = await fetch(`${partnerOrigin}/membership/${action}?patientId=${patientId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain(`frame-ancestors ${stackOutputs().webUrl}`);
      const html = await res.text();
      expect(html).toContain(`<h1>${heading} <span class="tag">Local membership stand-in</span></h1>`);
      expect(html).toContain(`data-patient-id="${patientId}"`);
    }
    expect((await fetch(`${partnerOrigin}/membership/cancel`)).status).toBe(404);
    const charge = await fetch(`${partnerOrigin}/membership/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ patientId, fields: { description: `Lab draw ${run}`, amount: '25.00' } }),
    });
    expect(charge.status).toBe(201);
    expect(
      (
        await fetch(`${partnerOrigin}/membership/charges`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ fields: {} }),
        })
      ).status,
    ).toBe(400);
    const records = (await (await fetch(`${partnerOrigin}/membership/records`)).json()) as {
      records: { action: string; patientId: string; fields: Record<string, string> }[];
    };
    expect(records.records).toContainEqual(
      expect.objectContaining({ action: 'charges', patientId, fields: { description: `Lab draw ${run}`, amount: '25.00' } }),
    );
    // The core product would not put an amount it cannot read on an invoice.
    const unreadable = await fetch(`${partnerOrigin}/membership/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ patientId, fields: { description: 'Odd', amount: 'twenty' } }),
    });
    expect(unreadable.status).toBe(400);
  });

  it("the stand-in's patient card lists the patient's charges on the invoice View Invoice shows, and no one else's", async () => {
    const partnerOrigin = stackEndpoints().partnerOrigin;
    const other = `pat-card-other-${run}`;
    const post = (id: string, description: string, amount: string) =>
      fetch(`${partnerOrigin}/membership/charges`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ patientId: id, fields: { description, amount } }),
      });
    const cardPatient = `pat-card-${run}`;
    expect((await post(cardPatient, 'Lab draw <fee>', '25.00')).status).toBe(201);
    expect((await post(cardPatient, 'Vitamin D test', '1200')).status).toBe(201);
    expect((await post(other, 'Not this patient', '9.99')).status).toBe(201);
    const res = await fetch(`${partnerOrigin}/membership/card?patientId=${cardPatient}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain(`frame-ancestors ${stackOutputs().webUrl}`);
    const html = await res.text();
    expect(html).toContain('<h1>Patient card <span class="tag">Local membership stand-in</span></h1>');
    expect(html).toContain('<button type="button" id="view-invoice" aria-expanded="false" aria-controls="invoice">View Invoice</button>');
    expect(html).toMatch(/<section id="invoice"[^>]* hidden>/);
    expect(html).toContain('Lab draw &lt;fee&gt;</td><td class="num">$25.00</td>');
    expect(html).toContain('Vitamin D test</td><td class="num">$1,200.00</td>');
    expect(html).toContain('Total</th><td class="num">$1,225.00</td>');
    expect(html).not.toContain('Not this patient');
    expect((await fetch(`${partnerOrigin}/membership-card.js`)).status).toBe(200);
    const empty = await (await fetch(`${partnerOrigin}/membership/card?patientId=pat-card-none-${run}`)).text();
    expect(empty).toContain('<p>No charges yet.</p>');
  });

  it('is managed by admins only (the whole list at once), from an allowed origin only', async () => {
    const id = `test-app-${run}`;
    const before = (await api(admin, 'GET', '/v1/practices/partner-apps')).body.partnerApps as Record<string, unknown>[];
    const inputs = before.map(({ updatedAt, local, ...rest }) => (void updatedAt, void local, rest));
    const added = {
      partnerAppId: id,
      name: 'Test partner',
      icon: 'heart',
      origin: stackEndpoints().partnerOrigin,
      path: '/app',
      noteType: 'PARTNER',
      active: false,
    };
    expect((await api(employee, 'PUT', '/v1/practices/partner-apps', { partnerApps: [...inputs, added] })).status).toBe(403);
    const put = await api(admin, 'PUT', '/v1/practices/partner-apps', { partnerApps: [...inputs, added] });
    expect(put.status).toBe(200);
    expect(put.body.partnerApps.find((a: { partnerAppId: string }) => a.partnerAppId === id)).toMatchObject(added);
    // The local partner kept its local mark.
    expect(put.body.partnerApps.find((a: { partnerAppId: string }) => a.partnerAppId === LOCAL_PARTNER)).toMatchObject({ local: true });
    const elsewhere = await api(admin, 'PUT', '/v1/practices/partner-apps', {
      partnerApps: [...inputs, { ...added, origin: 'https://not-configured.example' }],
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.fieldErrors[`partnerApps.${inputs.length}.origin`]).toMatch(/not among the practice's partner origins/);
    const twice = await api(admin, 'PUT', '/v1/practices/partner-apps', { partnerApps: [...inputs, added, added] });
    expect(twice.status).toBe(400);
    expect((await api(employee, 'GET', '/v1/practices/partner-apps')).body.partnerApps.map((a: { partnerAppId: string }) => a.partnerAppId)).toContain(id);
    // Leaving it out removes it; the others stay as they were.
    const removed = await api(admin, 'PUT', '/v1/practices/partner-apps', { partnerApps: inputs });
    expect(removed.status).toBe(200);
    expect(removed.body.partnerApps.map((a: { partnerAppId: string }) => a.partnerAppId)).toEqual(before.map((a) => a.partnerAppId));
  });

  it('refuses users of another practice and no_access users', async () => {
    const foreign = await createTestUser({ email: `partner-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_partner' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    for (const token of [foreign, noAccess]) {
      expect((await api(token, 'GET', '/v1/practices/partner-apps')).status).toBe(403);
      expect((await api(token, 'PUT', '/v1/practices/partner-apps', { partnerApps: [] })).status).toBe(403);
    }
    expect((await api(null, 'GET', '/v1/practices/partner-apps')).status).toBe(401);
  });
});

describe('partner results', () => {
  async function partnerNote(): Promise<string> {
    const created = await api(employee, 'POST', '/v2/notes', {
      noteType: 'PARTNER',
      patientId,
      status: 'DRAFT',
      data: { partnerAppId: LOCAL_PARTNER },
      hidden: true,
    });
    expect(created.status).toBe(201);
    return created.body.noteId;
  }
  const result = { title: 'Care plan', summary: 'Walk daily.', fields: [{ label: 'Goal', value: '30 minutes' }] };

  it('becomes the PARTNER note data once; a replay changes nothing', async () => {
    const noteId = await partnerNote();
    const deliveryId = `dlv-${run}-one`;
    const first = await deliver(LOCAL_PARTNER, 'results', { deliveryId, noteId, result });
    expect(first).toEqual({ status: 201, body: { noteId, replayed: false } });
    const after = (await api(employee, 'GET', `/v1/notes/${noteId}`)).body;
    expect(after).toMatchObject({ status: 'DELIVERED', noteVersion: 2, data: { partnerAppId: LOCAL_PARTNER, result, deliveryId } });

    const replay = await deliver(LOCAL_PARTNER, 'results', { deliveryId, noteId, result: { summary: 'Something else' } });
    expect(replay).toEqual({ status: 200, body: { noteId, replayed: true } });
    expect((await api(employee, 'GET', `/v1/notes/${noteId}`)).body).toEqual(after);
    const trail = await patientAuditTrail(patientId);
    expect(trail.filter((r) => r.entityId === noteId && r.actorUserId === `partner:${LOCAL_PARTNER}`)).toHaveLength(1);
  });

  it('refuses a bad signature, another partner secret, an old timestamp and an unsigned call without touching the note', async () => {
    const noteId = await partnerNote();
    const body = { deliveryId: `dlv-${run}-bad`, noteId, result };
    expect((await deliver(LOCAL_PARTNER, 'results', body, { secret: 'not-the-partner-secret-at-all' })).status).toBe(401);
    expect((await deliver(LOCAL_PARTNER, 'results', body, { secret: secretOf('veradigm') })).status).toBe(401);
    const old = await deliver(LOCAL_PARTNER, 'results', body, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(old.status).toBe(401);
    expect(old.body.message).toBe('The delivery timestamp is too old or in the future.');
    const unsigned = await fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/${LOCAL_PARTNER}/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(unsigned.status).toBe(401);
    expect((await api(employee, 'GET', `/v1/notes/${noteId}`)).body).toMatchObject({ status: 'DRAFT', noteVersion: 1, data: { partnerAppId: LOCAL_PARTNER } });
    // The signature is right but the note is not this partner's: nothing is written.
    const other = await api(employee, 'POST', '/v2/notes', { noteType: 'NOTE', patientId, status: 'DRAFT', data: { text: 'x' } });
    expect((await deliver(LOCAL_PARTNER, 'results', { ...body, deliveryId: `dlv-${run}-wrong`, noteId: other.body.noteId })).status).toBe(404);
  });
});

describe('secret rotation', () => {
  it('takes deliveries signed with the new or the retiring secret during a rotation, and only the new one after it', async () => {
    const file = stackEndpoints().partnerSecretsFile;
    const original = readFileSync(file, 'utf8');
    const retiring = secretOf(LOCAL_PARTNER);
    const rotated = `rotated-${run}-0123456789abcdef`;
    const noteFor = async () =>
      (await api(employee, 'POST', '/v2/notes', { noteType: 'PARTNER', patientId, status: 'DRAFT', data: { partnerAppId: LOCAL_PARTNER }, hidden: true })).body
        .noteId as string;
    const result = { title: 'Care plan', summary: 'Rotated.', fields: [] };
    try {
      writeFileSync(file, JSON.stringify({ ...JSON.parse(original), [LOCAL_PARTNER]: rotated, [`${LOCAL_PARTNER}:previous`]: retiring }));
      const [a, b] = [await noteFor(), await noteFor()];
      expect((await deliver(LOCAL_PARTNER, 'results', { deliveryId: `dlv-${run}-rot-old`, noteId: a, result }, { secret: retiring })).status).toBe(201);
      expect((await deliver(LOCAL_PARTNER, 'results', { deliveryId: `dlv-${run}-rot-new`, noteId: b, result }, { secret: rotated })).status).toBe(201);
      // An old timestamp is still refused as old, whichever secret signed it.
      const stale = await deliver(
        LOCAL_PARTNER,
        'results',
        { deliveryId: `dlv-${run}-rot-stale`, noteId: a, result },
        { secret: retiring, timestamp: Math.floor(Date.now() / 1000) - 3600 },
      );
      expect(stale.body.message).toBe('The delivery timestamp is too old or in the future.');

      writeFileSync(file, JSON.stringify({ ...JSON.parse(original), [LOCAL_PARTNER]: rotated }));
      const c = await noteFor();
      expect((await deliver(LOCAL_PARTNER, 'results', { deliveryId: `dlv-${run}-rot-done`, noteId: c, result }, { secret: retiring })).status).toBe(401);
      expect((await api(employee, 'GET', `/v1/notes/${c}`)).body).toMatchObject({ status: 'DRAFT', noteVersion: 1 });
    } finally {
      writeFileSync(file, original);
    }
  });
});

describe('external notes', () => {
  const prescription = {
    id: `vrx-${run}`,
    medicationName: 'Amoxicillin 500 mg capsule',
    strength: '500 mg',
    form: 'capsule',
    instructions: 'One capsule three times a day',
    quantityPrescribed: 30,
    numberOfRefills: 0,
    providerName: 'Dr. Remote',
    pharmacy: { name: 'Main St Pharmacy', address: { city: 'Eugene', state: 'OR', zipCode: '97401' } },
  };

  it('arrive once through the signed import, are listed, open read-only and refuse every change', async () => {
    const deliveryId = `dlv-${run}-rx`;
    const body = { deliveryId, patientId, status: 'SENT', eventTimestamp: '2026-11-20T15:00:00.000Z', prescription };
    const first = await deliver('veradigm', 'notes', body);
    expect(first.status).toBe(201);
    const noteId = first.body.noteId as string;
    expect(await deliver('veradigm', 'notes', body)).toEqual({ status: 200, body: { noteId, replayed: true } });

    const consult = await deliver('thea', 'notes', {
      deliveryId: `dlv-${run}-ec`,
      patientId,
      status: 'DELIVERED',
      eventTimestamp: '2026-11-21T15:00:00.000Z',
      econsult: { id: `ec-${run}`, specialty: 'Dermatology', question: 'Rash?', answer: 'Contact dermatitis.' },
    });
    expect(consult.status).toBe(201);

    const listed = await api(employee, 'GET', `/v2/notes?patientId=${patientId}&noteTypes=RX_VERADIGM,ECONSULT_THEA&statuses=SENT,DELIVERED`);
    expect(listed.status).toBe(200);
    expect(listed.body.notes.map((n: { noteType: string }) => n.noteType).sort()).toEqual(['ECONSULT_THEA', 'RX_VERADIGM']);
    const note = (await api(employee, 'GET', `/v1/notes/${noteId}`)).body;
    expect(note).toMatchObject({ noteType: 'RX_VERADIGM', status: 'SENT', data: { source: 'veradigm', prescription }, author: { name: 'Veradigm' } });

    const refused = [
      await api(admin, 'POST', `/v1/notes/${noteId}`, { noteVersion: 1, data: { text: 'changed' } }),
      await api(admin, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: 1 }),
      await api(admin, 'POST', `/v1/notes/${noteId}/addend`, { noteVersion: 1, text: 'a', formattedText: '<p>a</p>' }),
      await api(admin, 'POST', `/v1/notes/${noteId}/change-patient`, { noteVersion: 1, patientId: 'someone-else' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This note was written by an outside system and cannot be changed.');
    }
    expect((await api(admin, 'GET', `/v1/notes/${noteId}`)).body).toEqual(note);
    const byHand = await api(admin, 'POST', '/v2/notes', { noteType: 'RX_VERADIGM', patientId, data: {} });
    expect(byHand.status).toBe(400);
  });

  it('refuses a source the practice has no secret for and a body without its fields', async () => {
    expect(
      (
        await deliver(
          'dosespot',
          'notes',
          { deliveryId: `dlv-${run}-ds`, patientId, status: 'SENT', eventTimestamp: '2026-11-20T15:00:00.000Z', prescription },
          { secret: 'x'.repeat(32) },
        )
      ).status,
    ).toBe(401);
    const missing = await deliver('thea', 'notes', { deliveryId: `dlv-${run}-none`, patientId, status: 'SENT', eventTimestamp: '2026-11-20T15:00:00.000Z' });
    expect(missing.status).toBe(400);
  });
});
