import { beforeAll, describe, expect, it } from 'vitest';
import { api, patientAuditTrail, signIn } from '../support/local-stack.js';

/** Allergy and interaction checks at drug choice and at signing (README "Allergy and interaction checks"). */
const run = Date.now().toString(36);
let admin: string;
let provider: string;
let employee: string;
let providerId: string;

const monthYear = (offsetMonths: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + offsetMonths);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

async function newPatient(first: string): Promise<string> {
  const created = await api(admin, 'POST', '/v1/patients', {
    firstName: first,
    lastName: `Safety${run}`,
    gender: 'female',
    dob: '1970-04-05',
    primaryPhoneNumber: '(555) 301-4455',
    address: { line1: '4 Dock St', city: 'Portland', state: 'ME', zip: '04101' },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function newItem(genericName: string, brandName: string | null = null, quantityInStock = 20): Promise<string> {
  const created = await api(provider, 'POST', '/v2/inventories', {
    genericName,
    brandName,
    strength: '500 mg',
    form: 'tablet',
    ndcNumber: '0093-3109-01',
    expirationDate: monthYear(12),
    quantityInStock,
    costPerUnit: 10,
  });
  expect(created.status).toBe(201);
  return created.body.inventoryId;
}

async function addAllergy(patientId: string, body: Record<string, unknown>): Promise<string> {
  const created = await api(provider, 'POST', `/v1/patients/${patientId}/allergies`, body);
  expect(created.status).toBe(201);
  return created.body.ident;
}

async function addMedication(patientId: string, body: Record<string, unknown>): Promise<void> {
  const created = await api(provider, 'POST', `/v1/patients/${patientId}/medications`, body);
  expect(created.status).toBe(201);
}

type Warning = { id: string; kind: string; cause: string; severity: string; reaction: string; because: string; message: string };
async function check(patientId: string, body: Record<string, unknown>): Promise<{ ingredients: string[]; warnings: Warning[] }> {
  const res = await api(provider, 'POST', `/v1/patients/${patientId}/drug-safety-check`, body);
  expect(res.status).toBe(200);
  return res.body;
}

const stockOf = async (inventoryId: string) => (await api(provider, 'GET', `/v2/inventories/${inventoryId}`)).body.quantityInStock as number;

let amoxicillin: string;
let augmentin: string;
let bactrim: string;
let sertraline: string;

beforeAll(async () => {
  [admin, provider, employee] = await Promise.all(['admin', 'provider', 'employee'].map((who) => signIn(`${who}@demo.tidewell.local`)));
  providerId = (await api(provider, 'GET', '/v1/practices/users/me')).body.userId;
  [amoxicillin, augmentin, bactrim, sertraline] = await Promise.all([
    newItem('Amoxicillin', 'Amoxil'),
    newItem('Amoxicillin and clavulanate potassium'),
    newItem('Sulfamethoxazole and trimethoprim'),
    newItem('Sertraline hydrochloride', 'Zoloft'),
  ]);
});

describe('allergen search', () => {
  it('finds drug classes by their everyday names and substances that are not drugs, with where the data came from', async () => {
    const names = async (keyword: string) => {
      const res = await api(provider, 'GET', `/v1/allergens?keyword=${encodeURIComponent(keyword)}`);
      expect(res.status).toBe(200);
      expect(res.body.source.label).toMatch(/FDA NDC directory/);
      return (res.body.items as { kind: string; name: string }[]).map((a) => `${a.kind}:${a.name}`);
    };
    expect(await names('penicillin')).toContain('class:Penicillin-class Antibacterial [EPC]');
    expect((await names('sulfa'))[0]).toBe('class:Sulfonamide Antibacterial [EPC]');
    expect(await names('latex')).toContain('substance:Latex');
    expect(await names('peanut')).toContain('substance:Peanut');
    expect(await names('amoxi')).toContain('ingredient:Amoxicillin');
  });
});

describe('allergy checks', () => {
  it('a penicillin-class allergy flags amoxicillin and amoxicillin-clavulanate, naming the allergy, its severity and reaction', async () => {
    const patientId = await newPatient('Pen');
    await addAllergy(patientId, {
      name: 'Penicillin',
      severity: 'severe',
      description: 'Hives and throat swelling',
      allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
    });
    for (const inventoryId of [amoxicillin, augmentin]) {
      const { warnings, ingredients } = await check(patientId, { inventoryId });
      expect(ingredients).toContain('Amoxicillin');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ kind: 'allergy', cause: 'Penicillin', severity: 'Severe', reaction: 'Hives and throat swelling' });
      expect(warnings[0]!.message).toBe('Allergy: Penicillin (severe, Hives and throat swelling). Amoxicillin is a Penicillin-class Antibacterial [EPC].');
    }
    expect((await check(patientId, { inventoryId: bactrim })).warnings).toEqual([]);
  });

  it('a sulfonamide antibiotic allergy flags sulfamethoxazole; an ingredient-coded allergy flags products that contain it', async () => {
    const byClass = await newPatient('Sulfa');
    await addAllergy(byClass, {
      name: 'Sulfa drugs',
      severity: 'moderate',
      description: 'Rash',
      allergen: { kind: 'class', name: 'Sulfonamide Antibacterial [EPC]' },
    });
    const classWarnings = (await check(byClass, { inventoryId: bactrim })).warnings;
    expect(classWarnings.map((w) => w.because)).toEqual(['Sulfamethoxazole is a Sulfonamide Antibacterial [EPC]']);
    expect((await check(byClass, { inventoryId: amoxicillin })).warnings).toEqual([]);

    const byIngredient = await newPatient('Clav');
    await addAllergy(byIngredient, { name: 'Clavulanate', allergen: { kind: 'ingredient', name: 'Clavulanate' } });
    const [w] = (await check(byIngredient, { inventoryId: augmentin })).warnings;
    expect(w).toMatchObject({ cause: 'Clavulanate', severity: 'Severity not recorded' });
    expect(w!.because).toMatch(/contains clavulanate/);
    expect((await check(byIngredient, { inventoryId: amoxicillin })).warnings).toEqual([]);
  });

  it('a free-text allergy is read by its everyday class name; a resolved or refuted (inactive) allergy and a substance allergy do not warn', async () => {
    const patientId = await newPatient('Free');
    const allergyId = await addAllergy(patientId, { name: 'Penicillin', severity: 'mild' });
    await addAllergy(patientId, { name: 'Latex', allergen: { kind: 'substance', name: 'Latex' } });
    expect((await check(patientId, { inventoryId: amoxicillin })).warnings.map((w) => w.cause)).toEqual(['Penicillin']);
    const resolved = await api(provider, 'PUT', `/v1/patients/${patientId}/allergies/${allergyId}`, { active: false });
    expect(resolved.status).toBe(200);
    expect((await check(patientId, { inventoryId: amoxicillin })).warnings).toEqual([]);

    const refuted = await newPatient('Refuted');
    await addAllergy(refuted, { name: 'Penicillin', active: false, allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' } });
    expect((await check(refuted, { inventoryId: augmentin })).warnings).toEqual([]);
  });

  it('refuses a coded allergen that is not one of the kinds, and a check with no drug', async () => {
    const patientId = await newPatient('Bad');
    const bad = await api(provider, 'POST', `/v1/patients/${patientId}/allergies`, { name: 'X', allergen: { kind: 'food', name: 'X' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('allergen.kind: allergen.kind must be ingredient, class or substance');
    const none = await api(provider, 'POST', `/v1/patients/${patientId}/drug-safety-check`, {});
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Send an inventoryId or a drugName');
  });
});

describe('interaction checks (ONC high-priority list)', () => {
  it('warns for an SSRI with an active MAO inhibitor, a statin with clarithromycin and two QT-prolonging agents; a completed medication does not count', async () => {
    const patientId = await newPatient('Ddi');
    await addMedication(patientId, { productName: 'Nardil 15 mg tablet', status: 'Active' });
    await addMedication(patientId, { productName: 'Simvastatin 40 mg tablet', status: 'Active' });
    await addMedication(patientId, { productName: 'Sotalol hydrochloride 80 mg', status: 'Active' });
    await addMedication(patientId, { productName: 'Tizanidine 4 mg', status: 'Complete' });

    const ssri = (await check(patientId, { inventoryId: sertraline })).warnings;
    expect(ssri).toHaveLength(1);
    expect(ssri[0]).toMatchObject({ kind: 'interaction', cause: 'Nardil 15 mg tablet', severity: 'Contraindicated', reaction: 'serotonin syndrome' });
    expect(ssri[0]!.because).toBe('Sertraline (selective serotonin reuptake inhibitors) with phenelzine (MAO inhibitors)');

    expect((await check(patientId, { drugName: 'Clarithromycin 500 mg' })).warnings.map((w) => `${w.cause}: ${w.reaction}`)).toEqual([
      'Simvastatin 40 mg tablet: myopathy and rhabdomyolysis',
    ]);
    expect((await check(patientId, { drugName: 'Ziprasidone 20 mg' })).warnings.map((w) => w.because)).toEqual([
      'Ziprasidone and sotalol are both high-risk QT-prolonging agents',
    ]);
    // Tizanidine is on the list with ciprofloxacin, but that medication is completed.
    expect((await check(patientId, { drugName: 'Ciprofloxacin 500 mg' })).warnings).toEqual([]);
    expect((await check(patientId, { drugName: 'Acetaminophen 500 mg' })).warnings).toEqual([]);
  });
});

describe('signing over warnings', () => {
  it('a prescription with a warning is refused (422, listed) without a reason, dispenses nothing, and with a reason is signed, stored and audited', async () => {
    const patientId = await newPatient('Sign');
    await addAllergy(patientId, {
      name: 'Penicillin',
      severity: 'severe',
      description: 'Anaphylaxis',
      allergen: { kind: 'class', name: 'Penicillin-class Antibacterial [EPC]' },
    });
    const inventoryId = await newItem('Amoxicillin', 'Amoxil', 10);
    const data = {
      inventoryId,
      providerId,
      quantityPrescribed: 4,
      daysOfTreatment: 7,
      numberOfRefills: 0,
      instructions: 'One capsule',
      frequency: 'Twice a day',
    };
    const created = await api(provider, 'POST', '/v2/notes', { noteType: 'RX', patientId, status: 'DRAFT', data: {} });
    const draft = await api(provider, 'POST', `/v1/notes/${created.body.noteId}`, { noteVersion: 1, data });
    expect(draft.status).toBe(200);
    const noteId = created.body.noteId as string;

    const refused = await api(provider, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: draft.body.noteVersion, data });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('A safety warning needs an override reason before this can be signed.');
    expect(refused.body.warnings.map((w: Warning) => w.message)).toEqual([
      'Allergy: Penicillin (severe, Anaphylaxis). Amoxicillin is a Penicillin-class Antibacterial [EPC].',
    ]);
    const blank = await api(provider, 'POST', `/v1/notes/${noteId}/sign`, {
      noteVersion: draft.body.noteVersion,
      data: { ...data, safetyOverride: { reason: '   ' } },
    });
    expect(blank.status).toBe(422);
    expect(await stockOf(inventoryId)).toBe(10);
    expect((await api(provider, 'GET', `/v1/notes/${noteId}`)).body.status).toBe('DRAFT');

    const reason = 'Tolerated amoxicillin in 2024 with no reaction; allergist cleared';
    const signed = await api(provider, 'POST', `/v1/notes/${noteId}/sign`, {
      noteVersion: draft.body.noteVersion,
      data: { ...data, safetyOverride: { reason } },
    });
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe('SIGNED');
    expect(await stockOf(inventoryId)).toBe(6);
    const stored = (await api(provider, 'GET', `/v1/notes/${noteId}`)).body.data.safetyOverride;
    expect(stored).toMatchObject({ reason, by: { userId: providerId } });
    expect(stored.warnings.map((w: Warning) => w.id)).toEqual([expect.stringMatching(/^allergy:/)]);

    const trail = await patientAuditTrail(patientId);
    const override = trail.filter((e) => e.entity === 'DRUG_SAFETY_OVERRIDE');
    expect(override).toHaveLength(1);
    expect(override[0]).toMatchObject({ entityId: noteId, actorUserId: providerId });
    expect(String(override[0]!.detail)).toContain(`Reason: ${reason}`);
    expect(String(override[0]!.detail)).toContain('Allergy: Penicillin (severe, Anaphylaxis)');
  });

  it('a prescription without warnings signs without a reason and keeps none', async () => {
    const patientId = await newPatient('Clean');
    const inventoryId = await newItem('Amoxicillin', 'Amoxil', 10);
    const data = {
      inventoryId,
      providerId,
      quantityPrescribed: 1,
      daysOfTreatment: 7,
      numberOfRefills: 0,
      instructions: '',
      frequency: 'Daily',
      safetyOverride: { reason: 'not needed' },
    };
    const created = await api(provider, 'POST', '/v2/notes', { noteType: 'RX', patientId, status: 'DRAFT', data: {} });
    const signed = await api(provider, 'POST', `/v1/notes/${created.body.noteId}/sign`, { noteVersion: 1, data });
    expect(signed.status).toBe(200);
    expect(signed.body.data.safetyOverride).toBeUndefined();
    expect((await patientAuditTrail(patientId)).some((e) => e.entity === 'DRUG_SAFETY_OVERRIDE')).toBe(false);
  });

  it('a sale of an interacting drug needs a reason too; with one it is signed and audited', async () => {
    const patientId = await newPatient('Sale');
    await addMedication(patientId, { productName: 'Phenelzine sulfate 15 mg', status: 'Active' });
    const created = await api(employee, 'POST', '/v2/notes', { noteType: 'SALES', patientId, status: 'DRAFT', data: {} });
    const items = [{ kind: 'inventory', refId: sertraline, quantity: 1 }];
    const refused = await api(employee, 'POST', `/v1/notes/${created.body.noteId}/sign`, { noteVersion: 1, data: { items } });
    expect(refused.status).toBe(422);
    expect(refused.body.warnings[0].message).toBe(
      'Interaction with Phenelzine sulfate 15 mg (contraindicated): serotonin syndrome. Sertraline (selective serotonin reuptake inhibitors) with phenelzine (MAO inhibitors).',
    );
    const signed = await api(employee, 'POST', `/v1/notes/${created.body.noteId}/sign`, {
      noteVersion: 1,
      data: { items, safetyOverride: { reason: 'Phenelzine stopped yesterday; chart not updated' } },
    });
    expect(signed.status).toBe(200);
    expect(signed.body.data.safetyOverride.reason).toBe('Phenelzine stopped yesterday; chart not updated');
    expect((await patientAuditTrail(patientId)).filter((e) => e.entity === 'DRUG_SAFETY_OVERRIDE')).toHaveLength(1);
  });
});

describe('before e-prescribing', () => {
  it('lists the active allergies with severity and reaction and the active medications; the confirmation is audited with who and what; a changed list or a user who cannot prescribe is refused', async () => {
    const patientId = await newPatient('Erx');
    const empty = await api(provider, 'GET', `/v1/patients/${patientId}/eprescribe-review`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ allergies: [], medications: [] });

    const penicillin = await addAllergy(patientId, { name: 'Penicillin', severity: 'severe', description: 'Anaphylaxis' });
    await addAllergy(patientId, { name: 'Latex' });
    await addAllergy(patientId, { name: 'Codeine', severity: 'mild', description: 'Nausea', active: false });
    await addMedication(patientId, { productName: 'Lisinopril 20 mg tablet', sigText: 'One daily', status: 'Active' });
    await addMedication(patientId, { productName: 'Prednisone 10 mg tablet', status: 'Complete' });
    const listed = await api(provider, 'GET', `/v1/patients/${patientId}/eprescribe-review`);
    expect(listed.status).toBe(200);
    // A resolved allergy and a completed medication are not listed.
    expect(listed.body.allergies.map((a: { name: string; severity: string; reaction: string }) => [a.name, a.severity, a.reaction])).toEqual([
      ['Latex', 'Severity not recorded', 'Reaction not recorded'],
      ['Penicillin', 'Severe', 'Anaphylaxis'],
    ]);
    expect(listed.body.medications).toEqual([{ ident: expect.any(String), name: 'Lisinopril 20 mg tablet', instructions: 'One daily' }]);
    const shown = {
      allergyIds: listed.body.allergies.map((a: { ident: string }) => a.ident),
      medicationIds: listed.body.medications.map((m: { ident: string }) => m.ident),
    };

    // Someone who cannot prescribe does not confirm for a prescriber.
    const byEmployee = await api(employee, 'POST', `/v1/patients/${patientId}/eprescribe-review`, shown);
    expect(byEmployee.status).toBe(403);
    // A list that lost an allergy since it was shown is refused, with the list as it is now.
    const stale = await api(provider, 'POST', `/v1/patients/${patientId}/eprescribe-review`, { ...shown, allergyIds: [penicillin] });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The allergies or medications changed while this list was open. Check the updated list before continuing.');
    expect(stale.body.review.allergies).toHaveLength(2);
    const bad = await api(provider, 'POST', `/v1/patients/${patientId}/eprescribe-review`, { allergyIds: 'all' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('allergyIds: must be a list of ids');
    expect((await api(provider, 'POST', '/v1/patients/pat-none/eprescribe-review', shown)).status).toBe(404);

    const confirmed = await api(provider, 'POST', `/v1/patients/${patientId}/eprescribe-review`, shown);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.by.userId).toBe(providerId);
    expect(Date.parse(confirmed.body.confirmedAt)).toBeGreaterThan(Date.now() - 60_000);
    const trail = (await patientAuditTrail(patientId)).filter((e) => e.entity === 'EPRESCRIBE_REVIEW');
    expect(trail.filter((e) => e.action === 'read')).toHaveLength(3);
    const confirmations = trail.filter((e) => e.action === 'create');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]).toMatchObject({ actorUserId: providerId, patientId });
    expect(confirmations[0]!.detail).toBe(
      'Shown and confirmed before e-prescribing. Allergies: Latex (Severity not recorded, Reaction not recorded); Penicillin (Severe, Anaphylaxis). Medications: Lisinopril 20 mg tablet.',
    );
  });
});

describe('data sources', () => {
  it('says which interaction list and class data the checks use, with their dates', async () => {
    const res = await api(employee, 'GET', '/v1/drug-safety-sources');
    expect(res.status).toBe(200);
    expect(res.body.interactions).toMatchObject({
      label: 'ONC high-priority drug–drug interactions (Phansalkar et al., JAMIA 2012)',
      releaseDate: '2012-04-26',
      count: 15,
    });
    expect(res.body.classes.label).toMatch(/FDA NDC directory pharmacologic classes/);
  });
});
