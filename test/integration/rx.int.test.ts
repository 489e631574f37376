import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { api, createTestUser, signIn } from '../support/local-stack.js';
import { pdfText } from '../support/pdf-text.js';

/** In-house prescriptions dispensed from the practice's inventory (spec notes §3–§6, §9; shell §2.1, §7.10). */
const run = Date.now().toString(36);
let admin: string;
let provider: string;
let pa: string;
let pob: string;
let employee: string;
let providerId: string;
let paId: string;
let patientId: string;

const monthYear = (offsetMonths: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + offsetMonths);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

async function newItem(overrides: Record<string, unknown> = {}) {
  const created = await api(provider, 'POST', '/v2/inventories', {
    genericName: `Amoxicillin ${run}`,
    brandName: 'Amoxil',
    strength: '500 mg',
    form: 'capsule',
    ndcNumber: '0093-3109-01',
    expirationDate: monthYear(12),
    quantityInStock: 10,
    costPerUnit: 25,
    ...overrides,
  });
  expect(created.status).toBe(201);
  return created.body as { inventoryId: string; quantityInStock: number; finalPrice: number; restockLevel: number };
}

const stockOf = async (inventoryId: string) => (await api(provider, 'GET', `/v2/inventories/${inventoryId}`)).body.quantityInStock as number;

const rxData = (inventoryId: string, extra: Record<string, unknown> = {}) => ({
  inventoryId,
  providerId,
  quantityPrescribed: 4,
  daysOfTreatment: 7,
  numberOfRefills: 0,
  instructions: 'Take one capsule by mouth',
  frequency: 'Twice a day',
  lotNumber: 'L123',
  lotExpiration: monthYear(6),
  ...extra,
});

async function draftRx(token: string, data: Record<string, unknown>) {
  const created = await api(token, 'POST', '/v2/notes', { noteType: 'RX', patientId, status: 'DRAFT', data: {} });
  expect(created.status).toBe(201);
  return api(token, 'POST', `/v1/notes/${created.body.noteId}`, { noteVersion: 1, data });
}

beforeAll(async () => {
  [admin, provider, pa, pob, employee] = await Promise.all(['admin', 'provider', 'pa', 'pob', 'employee'].map((who) => signIn(`${who}@demo.tidewell.local`)));
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  paId = (await api(pa, 'GET', '/v1/practices/users/me')).body.userId;
  patientId = (
    await api(admin, 'POST', '/v1/patients', {
      firstName: 'Rhea',
      lastName: `Rx${run}`,
      gender: 'female',
      dob: '1980-02-03',
      primaryPhoneNumber: '(555) 201-3344',
      address: { line1: '12 Harbor Way', city: 'Portland', state: 'ME', zip: '04101' },
    })
  ).body.id;
});

describe('inventory items', () => {
  it('are added with every field, priced with the default markup, and every stock change is kept with who, when, how much and why', async () => {
    const item = await newItem();
    // Settings defaults: markup 10% on 25 cents → 28 (27.5 rounded), restock 20% of 10 → 2.
    expect(item).toMatchObject({
      genericName: `Amoxicillin ${run}`,
      brandName: 'Amoxil',
      ndcNumber: '0093-3109-01',
      quantityInStock: 10,
      isHidden: false,
      costPerUnit: 25,
      finalPrice: 28,
      restockLevel: 2,
    });
    const noReason = await api(provider, 'PUT', '/v2/inventories', { inventoryId: item.inventoryId, quantityInStock: 30 });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('reasonForEditing: A reason for editing is required when the quantity in stock changes');
    const stale = await api(provider, 'PUT', '/v2/inventories', {
      inventoryId: item.inventoryId,
      quantityInStock: 30,
      expectedQuantityInStock: 9,
      reasonForEditing: 'Delivery',
    });
    expect(stale.status).toBe(409);
    const restocked = await api(provider, 'PUT', '/v2/inventories', {
      inventoryId: item.inventoryId,
      quantityInStock: 30,
      expectedQuantityInStock: 10,
      reasonForEditing: 'Delivery',
      finalPrice: 40,
    });
    expect(restocked.status).toBe(200);
    expect(restocked.body).toMatchObject({ quantityInStock: 30, finalPrice: 40 });
    const history = (await api(employee, 'GET', `/v1/inventories/restocks?inventoryId=${item.inventoryId}`)).body.restocks;
    expect(history).toMatchObject([
      { change: 10, quantityAfter: 10, reasonForEditing: 'Initial stock', userName: 'Daniel Okafor' },
      { change: 20, quantityAfter: 30, reasonForEditing: 'Delivery', userId: providerId },
    ]);
    expect((await api(provider, 'POST', '/v2/inventories', { genericName: '', quantityInStock: 1, costPerUnit: 1 })).body.message).toBe(
      'genericName: Generic name is required',
    );
    expect(
      (await api(provider, 'POST', '/v2/inventories', { genericName: 'X', expirationDate: '13/2030', quantityInStock: 1, costPerUnit: 1 })).body.message,
    ).toBe('expirationDate: Expiration must be in mm/yyyy format');
    expect((await api(provider, 'GET', '/v2/inventories/nope')).status).toBe(404);
  });
});

describe('the RX note', () => {
  it('refuses items the selector leaves out: expired, hidden or without NDC', async () => {
    const expired = await newItem({ expirationDate: monthYear(-1) });
    const hidden = await newItem({ isHidden: true });
    const noNdc = await newItem({ ndcNumber: null });
    const thisMonth = await newItem({ expirationDate: monthYear(0) });
    for (const item of [expired, hidden, noNdc]) {
      const saved = await draftRx(provider, rxData(item.inventoryId));
      expect(saved.status).toBe(400);
      expect(saved.body.message).toBe('This inventory item cannot be prescribed: it is hidden, expired or has no NDC.');
    }
    expect((await draftRx(provider, rxData(thisMonth.inventoryId))).status).toBe(200);
  });

  it('checks every field with the spec rules', async () => {
    const item = await newItem();
    const cases: [Record<string, unknown>, string][] = [
      [{ quantityPrescribed: 0 }, 'Quantity must be at least 1'],
      [{ daysOfTreatment: 0 }, 'Days of treatment must be at least 1'],
      [{ numberOfRefills: -1 }, 'Refills must be 0 or more'],
      [{ instructions: 'x'.repeat(80) }, 'Instructions must be at most 79 characters'],
      [{ frequency: '' }, 'Frequency is required'],
      [{ datePrescribed: '2026-01-02' }, 'Date prescribed must be a date in mm/dd/yyyy format'],
      [{ dateFulfilled: '02/30/2026' }, 'Date fulfilled must be a date in mm/dd/yyyy format'],
      [{ lotExpiration: '1/2027' }, 'Lot expiration must be in mm/yyyy format'],
      [{ expiration: '2027-01' }, 'Expiration must be in mm/yyyy format'],
      [{ inventoryId: '' }, 'Please select a medication from the inventory'],
      [{ providerId: '' }, 'Please select a prescriber'],
    ];
    for (const [change, message] of cases) {
      const saved = await draftRx(provider, rxData(item.inventoryId, change));
      expect(saved.status, message).toBe(400);
      expect(saved.body.message).toBe(message);
    }
    const ok = await draftRx(provider, rxData(item.inventoryId, { instructions: 'x'.repeat(79), datePrescribed: '02/28/2026' }));
    expect(ok.status).toBe(200);
    // Medication, NDC and prices come from the item, the prescriber's name and NPI from the users.
    expect(ok.body.data).toMatchObject({
      medicationName: 'Amoxil 500 mg capsule',
      ndcNumber: '0093-3109-01',
      costToDoctor: 100,
      priceForPatient: 112,
      providerName: 'Daniel Okafor',
      providerNpi: '1467582930',
    });
    // A StaffUser is not a prescriber.
    const adminId = (await api(admin, 'GET', '/v1/practices/users/me')).body.userId;
    expect((await draftRx(provider, rxData(item.inventoryId, { providerId: adminId }))).body.message).toBe('The selected prescriber cannot prescribe');
  });

  it('signing dispenses in the same transaction and adds the chart medication linked to the note; a signed Rx cannot be changed', async () => {
    const item = await newItem();
    const draft = await draftRx(pa, rxData(item.inventoryId, { providerId: paId }));
    const signed = await api(pa, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe('SIGNED');
    expect(await stockOf(item.inventoryId)).toBe(6);
    const meds = (await api(pa, 'GET', `/v1/patients/${patientId}/medications`)).body as { noteId?: string; ident: string }[];
    const med = (Array.isArray(meds) ? meds : (meds as unknown as { items: typeof meds }).items).find((m) => m.noteId === draft.body.noteId) as Record<
      string,
      unknown
    >;
    // "Today" is the practice's day, in its calendar time zone, not the UTC date.
    const { timeZone } = (await api(pa, 'GET', '/v1/practices/settings/calendar')).body as { timeZone: string };
    const start = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    const [y, m, d] = start.split('-');
    expect(signed.body.data).toMatchObject({ datePrescribed: `${m}/${d}/${y}`, dateFulfilled: `${m}/${d}/${y}` });
    expect(med).toMatchObject({
      productName: 'Amoxil 500 mg capsule',
      start,
      end,
      routeOfAdministration: 'OR',
      transmissionMethod: 'History',
      status: 'Active',
      quantity: 4,
      rxId: draft.body.noteId,
    });
    expect(signed.body.data.medicationId).toBe(med.ident);
    const history = (await api(pa, 'GET', `/v1/inventories/restocks?inventoryId=${item.inventoryId}`)).body.restocks;
    expect(history.at(-1)).toMatchObject({ change: -4, reasonForEditing: 'Dispensed on prescription', noteId: draft.body.noteId, userId: paId });

    const v = signed.body.noteVersion;
    expect(
      (await api(pa, 'POST', `/v1/notes/${draft.body.noteId}`, { noteVersion: v, data: rxData(item.inventoryId, { providerId: paId }) })).body.message,
    ).toBe('A signed prescription cannot be changed. Delete it and write a new one.');
    expect(
      (await api(admin, 'POST', `/v1/notes/${draft.body.noteId}/update-signed-note`, { noteVersion: v, text: 'x', formattedText: '<p>x</p>' })).body.message,
    ).toBe('A signed prescription cannot be changed. Delete it and write a new one.');
    expect((await api(pa, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: v })).status).toBe(400);
    expect(await stockOf(item.inventoryId)).toBe(6);
  });

  it('two prescriptions dispensing the last units at once: one succeeds, the other gets a 409 and stock stays at zero', async () => {
    const item = await newItem({ quantityInStock: 4 });
    const [a, b] = await Promise.all([draftRx(provider, rxData(item.inventoryId)), draftRx(provider, rxData(item.inventoryId))]);
    const results = await Promise.all([a, b].map((d) => api(provider, 'POST', `/v1/notes/${d.body.noteId}/sign`, { noteVersion: d.body.noteVersion })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.message).toBe('There is not enough Amoxil 500 mg capsule in stock to dispense 4. Reload the inventory and try again.');
    expect(await stockOf(item.inventoryId)).toBe(0);
    const loser = [a, b][results.indexOf(refused)]!;
    expect((await api(provider, 'GET', `/v1/notes/${loser.body.noteId}`)).body.status).toBe('DRAFT');
  });

  it('deleting a signed prescription with restock adds the quantity back with the spec reason; without, stock stays', async () => {
    const item = await newItem();
    for (const restock of [true, false]) {
      const draft = await draftRx(provider, rxData(item.inventoryId));
      const signed = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
      const before = await stockOf(item.inventoryId);
      expect((await api(provider, 'DELETE', `/v1/notes/${draft.body.noteId}?noteVersion=${signed.body.noteVersion}`)).status).toBe(200);
      if (restock) {
        const back = await api(provider, 'PUT', '/v2/inventories', {
          inventoryId: item.inventoryId,
          quantityInStock: before + 4,
          expectedQuantityInStock: before,
          reasonForEditing: 'Interaction delete restock',
        });
        expect(back.status).toBe(200);
        expect(await stockOf(item.inventoryId)).toBe(before + 4);
      } else {
        expect(await stockOf(item.inventoryId)).toBe(before);
      }
    }
    const history = (await api(provider, 'GET', `/v1/inventories/restocks?inventoryId=${item.inventoryId}`)).body.restocks as {
      reasonForEditing: string;
      change: number;
    }[];
    expect(history.map((h) => [h.reasonForEditing, h.change])).toEqual([
      ['Initial stock', 10],
      ['Dispensed on prescription', -4],
      ['Interaction delete restock', 4],
      ['Dispensed on prescription', -4],
    ]);
  });

  it('deleting a signed prescription removes its chart medication in the same write, restoring it brings the medication back; a stale delete changes neither', async () => {
    const item = await newItem();
    const draft = await draftRx(provider, rxData(item.inventoryId));
    const signed = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(signed.status).toBe(200);
    const medsOfNote = async () =>
      ((await api(provider, 'GET', `/v1/patients/${patientId}/medications`)).body as { items: { noteId?: string; ident: string }[] }).items.filter(
        (m) => m.noteId === draft.body.noteId,
      );
    expect((await medsOfNote()).map((m) => m.ident)).toEqual([signed.body.data.medicationId]);

    const stale = await api(provider, 'DELETE', `/v1/notes/${draft.body.noteId}?noteVersion=${signed.body.noteVersion - 1}`);
    expect(stale.status).toBe(409);
    expect(await medsOfNote()).toHaveLength(1);

    expect((await api(provider, 'DELETE', `/v1/notes/${draft.body.noteId}?noteVersion=${signed.body.noteVersion}`)).status).toBe(200);
    expect(await medsOfNote()).toEqual([]);
    expect((await api(provider, 'GET', `/v1/notes/${draft.body.noteId}`)).status).toBe(404);

    // An admin who restores the prescription gets the same medication back, once.
    const restored = await api(admin, 'POST', `/v1/notes/${draft.body.noteId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.status).toBe('SIGNED');
    expect(await medsOfNote()).toEqual([expect.objectContaining({ ident: signed.body.data.medicationId, productName: 'Amoxil 500 mg capsule', quantity: 4 })]);
    expect((await api(admin, 'POST', `/v1/notes/${draft.body.noteId}/restore`)).status).toBe(409);
    expect((await api(admin, 'DELETE', `/v1/notes/${draft.body.noteId}?noteVersion=${restored.body.noteVersion}`)).status).toBe(200);
    expect(await medsOfNote()).toEqual([]);
  });

  it('restoring a prescription whose quantity was restocked takes it out of stock again in the same write, or refuses saying why when it is gone', async () => {
    const item = await newItem();
    const draft = await draftRx(provider, rxData(item.inventoryId));
    const noteId = draft.body.noteId as string;
    const signed = await api(provider, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(signed.status).toBe(200);
    const medsOfNote = async () =>
      ((await api(provider, 'GET', `/v1/patients/${patientId}/medications`)).body as { items: { noteId?: string }[] }).items.filter((m) => m.noteId === noteId);
    const restock = (from: number, extra: Record<string, unknown> = {}) =>
      api(provider, 'PUT', '/v2/inventories', {
        inventoryId: item.inventoryId,
        quantityInStock: from + 4,
        expectedQuantityInStock: from,
        reasonForEditing: 'Interaction delete restock',
        noteId,
        ...extra,
      });

    // Only a deleted prescription's own quantity, from its own item, goes back under its name.
    const notDeleted = await restock(6);
    expect(notDeleted.status).toBe(400);
    expect(notDeleted.body.message).toBe('Only a deleted prescription dispensed from this item can have its prescribed quantity put back here.');
    expect((await api(provider, 'DELETE', `/v1/notes/${noteId}?noteVersion=${signed.body.noteVersion}`)).status).toBe(200);
    expect((await restock(6, { quantityInStock: 9 })).status).toBe(400);
    expect(await stockOf(item.inventoryId)).toBe(6);
    expect((await restock(6)).status).toBe(200);
    // Once per deletion.
    const twice = await restock(10);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("This prescription's quantity was already put back in stock.");
    expect(await stockOf(item.inventoryId)).toBe(10);

    const restored = await api(admin, 'POST', `/v1/notes/${noteId}/restore`);
    expect(restored.status).toBe(200);
    expect(await stockOf(item.inventoryId)).toBe(6);
    expect(await medsOfNote()).toHaveLength(1);
    const history = async () =>
      (
        (await api(provider, 'GET', `/v1/inventories/restocks?inventoryId=${item.inventoryId}`)).body.restocks as {
          reasonForEditing: string;
          change: number;
          noteId?: string;
        }[]
      ).map((h) => [h.reasonForEditing, h.change, h.noteId ?? null]);
    expect(await history()).toEqual([
      ['Initial stock', 10, null],
      ['Dispensed on prescription', -4, noteId],
      ['Interaction delete restock', 4, noteId],
      ['Interaction restore', -4, noteId],
    ]);

    // Deleted and restocked again, then the shelf is counted down to 2: the restore cannot take 4 back.
    expect((await api(provider, 'DELETE', `/v1/notes/${noteId}?noteVersion=${restored.body.noteVersion}`)).status).toBe(200);
    expect((await restock(6)).status).toBe(200);
    expect(
      (
        await api(provider, 'PUT', '/v2/inventories', {
          inventoryId: item.inventoryId,
          quantityInStock: 2,
          expectedQuantityInStock: 10,
          reasonForEditing: 'Shelf count',
        })
      ).status,
    ).toBe(200);
    const refused = await api(admin, 'POST', `/v1/notes/${noteId}/restore`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `The prescription cannot be restored: its quantity (4) was put back in stock when it was deleted, and only 2 ${signed.body.data.medicationName} are in stock now. Add the stock back first.`,
    );
    // Nothing of the restore was written: the note stays deleted, its medication removed, the stock at 2.
    expect((await api(provider, 'GET', `/v1/notes/${noteId}`)).status).toBe(404);
    expect(await medsOfNote()).toEqual([]);
    expect(await stockOf(item.inventoryId)).toBe(2);
    // With the stock back, the restore goes through and takes it.
    expect(
      (
        await api(provider, 'PUT', '/v2/inventories', {
          inventoryId: item.inventoryId,
          quantityInStock: 5,
          expectedQuantityInStock: 2,
          reasonForEditing: 'Delivery',
        })
      ).status,
    ).toBe(200);
    expect((await api(admin, 'POST', `/v1/notes/${noteId}/restore`)).status).toBe(200);
    expect(await stockOf(item.inventoryId)).toBe(1);
    expect(await medsOfNote()).toHaveLength(1);
  });

  it('restoring a prescription deleted without restock leaves the stock as it is', async () => {
    const item = await newItem();
    const draft = await draftRx(provider, rxData(item.inventoryId));
    const signed = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect((await api(provider, 'DELETE', `/v1/notes/${draft.body.noteId}?noteVersion=${signed.body.noteVersion}`)).status).toBe(200);
    expect(await stockOf(item.inventoryId)).toBe(6);
    expect((await api(admin, 'POST', `/v1/notes/${draft.body.noteId}/restore`)).status).toBe(200);
    expect(await stockOf(item.inventoryId)).toBe(6);
  });

  it('a StaffUser cannot sign a prescription; a POBAllReview prescription waits for the provider, who approves and dispenses', async () => {
    const item = await newItem();
    const draft = await draftRx(employee, rxData(item.inventoryId));
    const refused = await api(employee, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your e-prescribing user type cannot prescribe.');

    const waiting = await api(pob, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({
      status: 'DRAFT',
      onBehalfOf: providerId,
      data: { approval: { status: 'PENDING', requestedBy: { name: 'Hannah Cole' } } },
    });
    expect(await stockOf(item.inventoryId)).toBe(10);
    const again = await api(pob, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: waiting.body.noteVersion });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe("This prescription is waiting for the provider's approval.");
    expect((await api(pa, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: waiting.body.noteVersion })).body.message).toBe(
      'Only the provider this prescription was written on behalf of can approve it.',
    );
    const inbox = (await api(provider, 'GET', '/v1/notifications?status=UNREAD')).body;
    expect(JSON.stringify(inbox)).toContain(draft.body.noteId);
    const approved = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: waiting.body.noteVersion });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'SIGNED', data: { approval: { status: 'APPROVED' } } });
    expect(await stockOf(item.inventoryId)).toBe(6);
  });
});

describe('the prescription PDF', () => {
  it('is a Letter page on the letterhead with the patient, prescriber and Rx fields', async () => {
    const item = await newItem();
    const draft = await draftRx(provider, rxData(item.inventoryId));
    const signed = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    const pdf = await api(employee, 'GET', `/v1/notes/${signed.body.noteId}/prescription-pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.body).toMatchObject({ fileName: 'prescription-Amoxil-500-mg-capsule.pdf', contentType: 'application/pdf' });
    const bytes = Buffer.from(pdf.body.base64, 'base64');
    if (process.env.RX_PDF_OUT) writeFileSync(process.env.RX_PDF_OUT, bytes);
    const text = (await pdfText(bytes)).join(' ');
    for (const expected of [
      'Prescription',
      `Rhea Rx${run}`,
      '02/03/1980',
      'Daniel Okafor',
      '1467582930',
      'Amoxil 500 mg capsule',
      '0093-3109-01',
      'Take one capsule by mouth',
      'Twice a day',
      '$1.12',
      '(555) 201-3344',
      '12 Harbor Way, Portland ME 04101',
    ]) {
      expect(text).toContain(expected);
    }
    const note = await api(provider, 'POST', '/v2/notes', { noteType: 'NOTE', patientId, status: 'DRAFT', data: { text: 'x' } });
    expect((await api(provider, 'GET', `/v1/notes/${note.body.noteId}/prescription-pdf`)).body.message).toBe(
      'Only a prescription can be printed as a prescription.',
    );
  });
});

describe('the patient profile', () => {
  it('with errors for e-prescribing refuses the signature with the list of errors', async () => {
    const item = await newItem();
    const bare = (await api(admin, 'POST', '/v1/patients', { firstName: 'Ned', lastName: `NoAddress${run}`, gender: 'male', dob: '1970-01-01' })).body.id;
    const created = await api(provider, 'POST', '/v2/notes', { noteType: 'RX', patientId: bare, status: 'DRAFT', data: {} });
    const saved = await api(provider, 'POST', `/v1/notes/${created.body.noteId}`, { noteVersion: 1, data: rxData(item.inventoryId) });
    const refused = await api(provider, 'POST', `/v1/notes/${created.body.noteId}/sign`, { noteVersion: saved.body.noteVersion });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "The patient's profile must be fixed before prescribing: Primary phone number is required; Address Line 1 is required; City is required; State is required; Zip Code is required",
    );
    expect(await stockOf(item.inventoryId)).toBe(10);
  });
});

describe('tenancy and roles on the new routes', () => {
  it('refuses users of another practice, no_access users and calls without a token', async () => {
    const item = await newItem();
    const foreign = await createTestUser({ email: `rx-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_rx' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const calls: [string, string, unknown?][] = [
      ['GET', `/v2/inventories/${item.inventoryId}`],
      ['POST', '/v2/inventories', { genericName: 'X', quantityInStock: 1, costPerUnit: 1 }],
      ['PUT', '/v2/inventories', { inventoryId: item.inventoryId, isHidden: true }],
      ['GET', `/v1/inventories/restocks?inventoryId=${item.inventoryId}`],
    ];
    for (const [method, path, body] of calls) {
      for (const token of [foreign, noAccess]) expect((await api(token, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await api(null, method, path, body)).status).toBe(401);
    }
    expect(await stockOf(item.inventoryId)).toBe(10);
    expect((await api(provider, 'GET', `/v2/inventories/${item.inventoryId}`)).body.isHidden).toBe(false);
  });
});
