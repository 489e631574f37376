import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../support/local-stack.js';

let provider: string;
let employee: string;
let patientId: string;
const run = Date.now().toString(36);
const text = (t: string) => ({ text: t, formattedText: `<p>${t}</p>` });

async function chart(path: string, body: unknown) {
  const res = await api(provider, 'POST', `/v1/patients/${patientId}/${path}`, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
  const p = await api(provider, 'POST', '/v1/patients', {
    firstName: 'Tamsin',
    lastName: `Templa${run}`,
    chosenFirstName: 'Tam',
    gender: 'female',
    dob: '1984-06-15',
    email: `tam.${run}@example.test`,
    primaryPhoneNumber: '5125550142',
    address: { line1: '12 Oak St', city: 'Austin', state: 'TX', zip: '78701' },
    practitioner: { name: 'Priya Raman' },
  });
  expect(p.status).toBe(201);
  patientId = p.body.id;
  // A PUT from a client that knows nothing of the primary provider (the patient form) keeps it.
  const { id, membershipStatus, status, createdAt, updatedAt, practitioner, ...editable } = p.body; // eslint-disable-line @typescript-eslint/no-unused-vars
  const put = await api(provider, 'PUT', `/v1/patients/${patientId}`, editable);
  expect(put.status).toBe(200);
  expect(put.body.practitioner).toEqual({ name: 'Priya Raman' });
  await chart('allergies', { name: 'Penicillin', severity: 'severe', description: 'Hives' });
  await chart('medications', { productName: 'Lisinopril', strength: '10', strengthUOM: 'mg', sigText: 'Once daily' });
  await chart('medications', { productName: 'Old drug', status: 'Complete' });
  await chart('diagnoses', { name: 'Hypertension', pinned: false, date: '2020-01' });
  await chart('family-history', { diagnosis: 'Diabetes', family: ['MTH'] });
  const vitals = (
    await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'VITALS', patientId, data: { systolic: 128, diastolic: 82, weight: 150, height: 65 } })
  ).body;
  await api(provider, 'POST', `/v1/notes/${vitals.noteId}/sign`, { noteVersion: 1 });
  const visit = (
    await api(provider, 'POST', '/v2/notes', {
      noteId: 'new',
      noteType: 'NOTE',
      patientId,
      eventTimestamp: '2026-05-01T15:00:00.000Z',
      data: text('Visit: BP follow-up'),
    })
  ).body;
  await api(provider, 'POST', `/v1/notes/${visit.noteId}/sign`, { noteVersion: 1 });
  const sticky = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'STICKY', patientId, data: text('Sticky reminder') })).body;
  await api(provider, 'POST', `/v1/notes/${sticky.noteId}/sign`, { noteVersion: 1 });
  await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId, data: text('Unsigned draft') });
});

describe('templates', () => {
  it('creates, lists, updates and deletes, with one template per shortcut and private templates only for their owner', async () => {
    const created = await api(provider, 'POST', '/v1/practices/templates', {
      templateName: `Follow-up ${run}`,
      shortcut: `fu${run}`,
      body: 'Hello {{first name}} {{labs}}',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', private: false, transformKeys: ['first name', 'labs'] });

    const taken = await api(employee, 'POST', '/v1/practices/templates', { templateName: 'Other', shortcut: `FU${run}`, body: 'x' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Another template already uses this shortcut');
    const invalid = await api(provider, 'POST', '/v1/practices/templates', { templateName: '', shortcut: 'has space', body: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors).toMatchObject({
      templateName: 'Template name is required',
      shortcut: 'Shortcut may contain only letters, digits, hyphen and underscore',
    });

    const mine = await api(provider, 'POST', '/v1/practices/templates', { templateName: `Mine ${run}`, shortcut: `mine${run}`, body: 'x', private: true });
    const seenByEmployee = (await api(employee, 'GET', '/v1/practices/templates')).body.templates.map((t: { templateId: string }) => t.templateId);
    expect(seenByEmployee).toContain(created.body.templateId);
    expect(seenByEmployee).not.toContain(mine.body.templateId);

    const updated = await api(provider, 'PUT', `/v1/practices/templates/${created.body.templateId}`, {
      templateName: `Follow-up ${run}`,
      shortcut: `fu2${run}`,
      body: 'Bye',
      status: 'inactive',
    });
    expect(updated.body).toMatchObject({ shortcut: `fu2${run}`, status: 'inactive' });
    const active = (await api(provider, 'GET', '/v1/practices/templates?status=active')).body.templates.map((t: { templateId: string }) => t.templateId);
    expect(active).not.toContain(created.body.templateId);
    // The old shortcut is free again.
    expect((await api(employee, 'POST', '/v1/practices/templates', { templateName: 'Reuse', shortcut: `fu${run}`, body: 'x' })).status).toBe(201);

    expect((await api(provider, 'DELETE', `/v1/practices/templates/${created.body.templateId}`)).status).toBe(200);
    expect((await api(provider, 'GET', `/v1/practices/templates/${created.body.templateId}`)).status).toBe(404);
  });

  it('expands every placeholder from the seeded chart', async () => {
    const body = [
      'Patient: {{first name}} ({{preferred name}}) {{last name}}, DOB {{dob}}, age {{age}}, {{gender}}',
      'Phone {{phone number}} email {{email}}',
      'Address: {{address}}',
      'Allergies: {{allergies}}',
      'Meds: {{current meds}}',
      'History: {{medical history}}',
      'Family: {{family history}}',
      'Vitals: {{vitals}}',
      'Last visit: {{last visit note}}',
      'Extract: {{final extract chart notes}}',
      'Labs gone:{{labs}}',
      'Pharmacy: {{pharmacy}}',
      'Primary provider: {{primary provider}}',
      'Plan: {{wild card}}',
      '{{signature}}',
      '{{mystery}}',
    ].join('\n');
    const t = (await api(provider, 'POST', '/v1/practices/templates', { templateName: `Everything ${run}`, shortcut: `all${run}`, body })).body;
    const res = await api(provider, 'POST', `/v1/templates/${t.templateId}/expand`, { patientId, timeZone: 'America/Chicago' });
    expect(res.status).toBe(200);
    const lines = res.body.text.split('\n');
    expect(lines[0]).toBe(
      `Patient: Tamsin (Tam) Templa${run}, DOB 06/15/1984, age ${new Date().getUTCFullYear() - 1984 - (new Date().toISOString().slice(5, 10) < '06-15' ? 1 : 0)}, Female`,
    );
    expect(lines[1]).toBe(`Phone (512) 555-0142 email tam.${run}@example.test`);
    expect(res.body.text).toContain('Address: 12 Oak St\nAustin, TX 78701');
    expect(res.body.text).toContain('Allergies: Penicillin (severe) - Hives');
    expect(res.body.text).toContain('Meds: Lisinopril 10 mg - Once daily');
    expect(res.body.text).not.toContain('Old drug');
    expect(res.body.text).toContain('History: Hypertension (2020-01)');
    expect(res.body.text).toContain('Family: Diabetes - Mother');
    expect(res.body.text).toContain('Vitals: Blood pressure: 128/82 mmHg\nHeight: 65 in\nWeight: 150 lb\nBMI: 24.96 kg/m²');
    expect(res.body.text).toContain('Last visit: Note - 05/01/2026');
    expect(res.body.text).toContain('Visit: BP follow-up');
    const extract = res.body.text.slice(res.body.text.indexOf('Extract:'), res.body.text.indexOf('Labs gone:'));
    expect(extract).toContain('Visit: BP follow-up');
    expect(extract).not.toContain('Sticky reminder');
    expect(extract).not.toContain('Unsigned draft');
    expect(extract).not.toContain('Vitals');
    expect(res.body.text).toContain('Labs gone:\n');
    expect(res.body.text).toContain('Plan: ***');
    expect(res.body.text).toContain('Primary provider: Priya Raman');
    // Nobody has signed yet: the signature line says it is written at signing.
    expect(res.body.text).toContain('[Signature: added when the note is signed]');
    expect(res.body.text).not.toContain('Electronically signed');
    expect(res.body.text).toContain('{{mystery}}');
    expect(res.body.unresolved).toEqual(['pharmacy']);
    expect(res.body.unknown).toEqual(['mystery']);
    expect(res.body.formattedText).toContain('<p>Allergies: Penicillin (severe) - Hives</p>');

    // The wildcard from the template blocks saving until it is filled.
    const note = (await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId })).body;
    const blocked = await api(provider, 'POST', `/v1/notes/${note.noteId}`, {
      noteVersion: 1,
      data: { text: res.body.text, formattedText: res.body.formattedText },
    });
    expect(blocked.body.message).toBe('There is still a wildcard in the note');
    const link = await api(provider, 'POST', '/v1/template-links', { templateId: t.templateId, interactionId: note.noteId });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ templateId: t.templateId, interactionId: note.noteId });
  });

  it('writes the signature lines when the note is signed, by the signer as the practice names them, not when the template is inserted', async () => {
    const t = (
      await api(provider, 'POST', '/v1/practices/templates', {
        templateName: `Sig ${run}`,
        shortcut: `sig${run}`,
        body: '{{provider signature}} / {{signature}}',
      })
    ).body;
    const pending = '[Provider signature: added when the note is signed] / [Signature: added when the note is signed]';

    // The employee inserts the template; the provider signs: the line is the provider's, at the signing time.
    const note = (await api(employee, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId, data: text('Phone triage') })).body;
    expect(note.author.name).toBe('Jordan Ellis');
    const inserted = await api(employee, 'POST', `/v1/templates/${t.templateId}/expand`, { patientId, noteId: note.noteId });
    expect(inserted.body.text).toBe(pending);
    const draft = await api(employee, 'POST', `/v1/notes/${note.noteId}`, {
      noteVersion: 1,
      data: { text: inserted.body.text, formattedText: inserted.body.formattedText },
    });
    expect(draft.status).toBe(200);
    expect(draft.body.data.text).toBe(pending);
    const before = Date.now();
    const signed = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: draft.body.noteVersion, timeZone: 'America/Chicago' });
    expect(signed.status).toBe(200);
    const when = new Intl.DateTimeFormat('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZone: 'America/Chicago',
    });
    const possible = [before, Date.parse(signed.body.signed)].map((ms) => when.format(new Date(ms)).replace(',', ''));
    const line = signed.body.data.text.split(' / ')[1];
    // The provider's display name from the practice's user record, not the token's email.
    expect(possible.map((at) => `Electronically signed by Daniel Okafor. ${at}`)).toContain(line);
    expect(signed.body.data.text).toBe(`${line} / ${line}`);
    expect(signed.body.data.formattedText).toBe(`<p>${line} / ${line}</p>`);
    expect(signed.body.signedBy.name).toBe('Daniel Okafor');

    // Written on behalf of the provider and signed by the employee: each line names its own person.
    const forProvider = (
      await api(employee, 'POST', '/v2/notes', {
        noteId: 'new',
        noteType: 'NOTE',
        patientId,
        onBehalfOf: signed.body.signedBy.userId,
        data: { text: pending, formattedText: `<p>${pending}</p>` },
      })
    ).body;
    const byEmployee = await api(employee, 'POST', `/v1/notes/${forProvider.noteId}/sign`, { noteVersion: forProvider.noteVersion });
    expect(byEmployee.status).toBe(200);
    expect(byEmployee.body.data.text).toMatch(
      /^Electronically signed by Daniel Okafor\. \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M \/ Electronically signed by Jordan Ellis\. \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M$/,
    );
  });

  it("expands by shortcut, says 'Shortcode … not found' for an unknown one, and {{form}} needs a patient", async () => {
    await api(provider, 'POST', '/v1/practices/templates', {
      templateName: `Greeting ${run}`,
      shortcut: `hi${run}`,
      body: 'Hi {{first name}}, today is {{date}}',
    });
    const ok = await api(provider, 'POST', '/v1/templates/expand-shortcut', { shortcut: `hi${run}`, patientId });
    expect(ok.body.text).toMatch(/^Hi Tamsin, today is \d{2}\/\d{2}\/\d{4}$/);
    const missing = await api(provider, 'POST', '/v1/templates/expand-shortcut', { shortcut: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Shortcode nope not found');

    const form = (await api(provider, 'POST', '/v1/practices/templates', { templateName: `Form ${run}`, shortcut: `form${run}`, body: 'Intake: {{form}}' }))
      .body;
    const noPatient = await api(provider, 'POST', `/v1/templates/${form.templateId}/expand`, {});
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.message).toBe('Please select a patient');
    const withPatient = await api(provider, 'POST', `/v1/templates/${form.templateId}/expand`, { patientId });
    expect(withPatient.body).toMatchObject({ text: 'Intake: ', unresolved: ['form'] });
  });

  it('the demo practice is seeded with active SOAP, annual physical and phone templates; SOAP keeps its wildcards', async () => {
    const list = (await api(employee, 'GET', '/v1/practices/templates?status=active')).body.templates as { shortcut: string; templateId: string }[];
    expect(list.map((t) => t.shortcut)).toEqual(expect.arrayContaining(['soap', 'annual', 'callback']));
    const soap = await api(provider, 'POST', '/v1/templates/expand-shortcut', { shortcut: 'SOAP', patientId });
    expect(soap.status).toBe(200);
    expect(soap.body.formattedText).toContain('<h3>Subjective</h3><p>Tam is a');
    expect(soap.body.text.match(/\*\*\*/g)).toHaveLength(4);
    expect(soap.body.text).toContain('Allergies: Penicillin (severe) - Hives');
  });
});
