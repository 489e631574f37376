import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORM_MESSAGES } from '../../shared/forms/forms.js';
import { PARTNER_MESSAGES } from '../../shared/partners/partner-schema.js';
import { api, createTestUser, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const run = Date.now().toString(36);
const NEW_PATIENT = '5f1a2b3c4d5e6f7081920a1b';
let provider: string;
let employee: string;
let patientId: string;
let submittedNoteId: string;

const intakeQ = () =>
  JSON.parse(JSON.parse(readFileSync(stackEndpoints().partnerSecretsFile, 'utf8')).intakeq) as { apiKey: string; webhookToken: string; appUrl: string };
const standIn = () => `${stackOutputs().apiUrl.replace(/\/api$/, '')}/local/intakeq`;

function webhook(body: unknown, token = intakeQ().webhookToken) {
  return fetch(`${stackOutputs().apiUrl}/v1/partner-deliveries/intakeq/intakes?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Fills the patient's page of the stand-in as a person would submit it. */
function fill(intakeId: string, answers: Record<string, string>) {
  return fetch(`${standIn()}/fill/${intakeId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(answers).toString(),
  });
}

const ANSWERS = {
  concern: 'Knee pain when climbing stairs',
  medications: 'Lisinopril 10 mg daily\nMetformin 500 mg twice daily',
  allergies: 'Penicillin\nPeanuts',
  conditions: 'Type 2 diabetes\nHypertension',
  surgeries: 'Appendectomy',
  family: 'Heart disease (father)',
  tobacco: 'Former',
  alcohol: '2',
  exercise: '1-2 times a week',
  occupation: 'Teacher',
};

async function send(body: Record<string, unknown>, token = provider) {
  return api(token, 'POST', '/v2/practices/forms/send', body);
}

beforeAll(async () => {
  [provider, employee] = await Promise.all(['provider', 'employee'].map((who) => signIn(`${who}@demo.tidewell.local`)));
  patientId = (
    await api(provider, 'POST', '/v1/patients', {
      firstName: 'Ina',
      lastName: `Take${run}`,
      gender: 'female',
      dob: '1980-02-03',
      email: `ina.${run}@example.com`,
    })
  ).body.id;
});

describe('intake forms through IntakeQ', () => {
  it("lists the practice's questionnaires from IntakeQ, archived ones left out", async () => {
    const res = await api(employee, 'GET', '/v2/practices/forms');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: '5f1a2b3c4d5e6f7081920a2c', name: 'Annual Health Update' },
      { id: NEW_PATIENT, name: 'New Patient Intake' },
    ]);
  });

  it('refuses a send without a form, to an unknown patient, or with no address, in the spec words', async () => {
    for (const formId of [undefined, '', 'no-such-form']) {
      const res = await send({ patientId, formId, sendMethod: 'Email' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(FORM_MESSAGES.selectForm);
    }
    expect((await send({ patientId, formId: NEW_PATIENT, sendMethod: 'Fax' })).status).toBe(400);
    expect((await send({ patientId: 'nobody', formId: NEW_PATIENT, sendMethod: 'Email' })).status).toBe(404);
    const bare = (await api(provider, 'POST', '/v1/patients', { firstName: 'No', lastName: `Address${run}`, gender: 'male', dob: '1990-01-01' })).body.id;
    const noEmail = await send({ patientId: bare, formId: NEW_PATIENT, sendMethod: 'Email' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe(FORM_MESSAGES.emailRequired);
    const noPhone = await send({ patientId: bare, formId: NEW_PATIENT, sendMethod: 'SMS' });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toBe(FORM_MESSAGES.phoneRequired);
    expect((await send({ patientId: bare, formId: NEW_PATIENT, sendMethod: 'Email', email: 'not-an-email' })).status).toBe(400);
  });

  it('sends a form (a FORM note, sent), resends it, takes the submission once by webhook, and notifies its sender', async () => {
    const sent = await send({ patientId, formId: NEW_PATIENT, sendMethod: 'Email' });
    expect(sent.status).toBe(200);
    const note = sent.body;
    expect(note).toMatchObject({
      noteType: 'FORM',
      status: 'SENT',
      patientId,
      data: { formId: NEW_PATIENT, formName: 'New Patient Intake', sendMethod: 'Email', sentTo: `ina.${run}@example.com` },
    });
    const intakeId: string = note.data.intakeId;
    expect((await patientAuditTrail(patientId)).some((e) => e.action === 'create' && e.entityId === note.noteId)).toBe(true);
    // The stand-in's outbox holds the message with the patient's page.
    const outbox = await (await fetch(`${standIn()}/`)).text();
    expect(outbox).toContain('IntakeQ (local stand-in)');
    expect(outbox).toContain(`/local/intakeq/fill/${intakeId}`);

    // Resend: by intake id only; an unknown one is refused.
    const resent = await send({ intakeId });
    expect(resent.status).toBe(200);
    expect(resent.body.noteVersion).toBe(2);
    const unknown = await send({ intakeId: 'f0000000-0000-0000-0000-000000000000' });
    expect(unknown.status).toBe(404);

    // Webhook: a wrong token is refused; a notice before the form is filled changes nothing.
    const notice = { IntakeId: intakeId, Type: 'Intake Submitted', ClientId: 1, ExternalClientId: patientId, PracticeId: 'x' };
    const forged = await webhook(notice, 'wrong-token-wrong-token-wrong');
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toBe(PARTNER_MESSAGES.badSignature);
    expect((await webhook(notice)).status).toBe(200);
    expect((await api(provider, 'GET', `/v1/notes/${note.noteId}`)).body.status).toBe('SENT');

    // The patient's page validates like IntakeQ: a required question left empty is refused.
    const missing = await fill(intakeId, { ...ANSWERS, concern: '' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('This question is required.');
    // Submitting fires the webhook; the submission is read back from IntakeQ.
    const filled = await fill(intakeId, ANSWERS);
    expect(filled.status).toBe(200);
    expect(await filled.text()).toContain('Your answers were sent to the practice.');
    const submitted = (await api(provider, 'GET', `/v1/notes/${note.noteId}`)).body;
    submittedNoteId = note.noteId;
    expect(submitted.status).toBe('DELIVERED');
    expect(submitted.data.numberOfQuestions).toBe(10);
    expect(submitted.data.submissionData).toMatchObject({ Status: 'Completed', QuestionnaireId: NEW_PATIENT });
    expect(submitted.data.submissionData.Questions.find((q: { Id: string }) => q.Id === 'allergies').Answer).toBe('Penicillin\nPeanuts');
    const notes = await api(provider, 'GET', `/v1/notifications?notificationType=FORM&sourceId=${note.noteId}`);
    expect(notes.status).toBe(200);
    const forms = notes.body.notifications as { text: string; data: Record<string, unknown> }[];
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ text: 'New Patient Intake submitted', data: { noteId: note.noteId, patientId, intakeId } });

    // The same notice again changes nothing.
    const again = await webhook(notice);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { replayed: boolean }).replayed).toBe(true);
    expect((await api(provider, 'GET', `/v1/notes/${note.noteId}`)).body.noteVersion).toBe(submitted.noteVersion);
    const after = await api(provider, 'GET', `/v1/notifications?notificationType=FORM&sourceId=${note.noteId}`);
    expect(after.body.notifications as unknown[]).toHaveLength(1);
    // A notice for an intake no form of the practice was sent with is refused.
    expect((await webhook({ ...notice, IntakeId: 'f0000000-0000-0000-0000-000000000001' })).status).toBe(404);
    // A submitted form is not resent.
    const late = await send({ intakeId });
    expect(late.status).toBe(502);
    expect(late.body.message).toBe(FORM_MESSAGES.resendFailed);

    // The patient's submitted forms, by form.
    const list = await api(employee, 'GET', `/v2/practices/forms?status=submitted&patientId=${patientId}&formId=${NEW_PATIENT}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ intakeId, formId: NEW_PATIENT, formName: 'New Patient Intake', status: 'Completed' })]);
    expect((await api(employee, 'GET', `/v2/practices/forms?status=submitted&patientId=${patientId}&formId=5f1a2b3c4d5e6f7081920a2c`)).body).toEqual([]);
  });

  it('adds two answers to the health summary with the form as their source, once however often it is used, and records each date', async () => {
    const mapping = (overrides: Record<string, unknown> = {}) => ({
      noteId: submittedNoteId,
      formId: NEW_PATIENT,
      questions: [
        {
          id: 'allergies',
          title: 'Allergies',
          answer: 'Penicillin\nPeanuts',
          enabled: true,
          section: 'ALLERGIES',
          type: 'OpenQuestion',
          subType: 'Multiline',
          titleOverride: '',
        },
        {
          id: 'tobacco',
          title: 'Do you smoke or use tobacco?',
          answer: 'Former',
          enabled: true,
          section: 'SOCIAL_HISTORY',
          type: 'MultipleChoice',
          subType: null,
          titleOverride: 'Tobacco use',
        },
        {
          id: 'occupation',
          title: 'What is your occupation?',
          answer: 'Teacher',
          enabled: false,
          section: 'GENERAL',
          type: 'OpenQuestion',
          subType: null,
          titleOverride: '',
        },
      ],
      ...overrides,
    });
    const path = `/v2/patients/${patientId}/map-health-history`;
    const untitled = await api(
      employee,
      'POST',
      path,
      mapping({
        questions: [
          {
            id: 'tobacco',
            title: 'Tobacco',
            answer: 'Former',
            enabled: true,
            section: 'SOCIAL_HISTORY',
            type: 'MultipleChoice',
            subType: null,
            titleOverride: '',
          },
        ],
      }),
    );
    expect(untitled.status).toBe(400);
    expect(JSON.stringify(untitled.body)).toContain(FORM_MESSAGES.titleOverrideRequired);
    const notYet = (await send({ patientId, formId: NEW_PATIENT, sendMethod: 'Email' })).body;
    const early = await api(employee, 'POST', path, mapping({ noteId: notYet.noteId }));
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(FORM_MESSAGES.notSubmitted);
    expect((await api(employee, 'POST', `/v2/patients/nobody/map-health-history`, mapping())).status).toBe(404);

    const first = await api(employee, 'POST', path, mapping());
    expect(first.status).toBe(200);
    expect(first.body.written.map((w: { section: string }) => w.section)).toEqual(['ALLERGIES', 'ALLERGIES', 'SOCIAL_HISTORY']);
    expect(first.body.formMappingDates).toHaveLength(1);
    const allergies = (await api(provider, 'GET', `/v1/patients/${patientId}/allergies`)).body.items as { name: string; formSource?: string }[];
    expect(allergies.map((a) => [a.name, a.formSource]).sort()).toEqual([
      ['Peanuts', 'New Patient Intake'],
      ['Penicillin', 'New Patient Intake'],
    ]);
    const social = (await api(provider, 'GET', `/v1/patients/${patientId}/social-history`)).body.items as {
      question: string;
      answers: { answer: string; formSource?: string }[];
    }[];
    expect(social).toEqual([
      expect.objectContaining({ question: 'Tobacco use', answers: [expect.objectContaining({ answer: 'Former', formSource: 'New Patient Intake' })] }),
    ]);
    expect((await api(provider, 'GET', `/v1/notes/${submittedNoteId}`)).body).toMatchObject({
      status: 'FULFILLED',
      data: { formMappingDates: first.body.formMappingDates },
    });

    const second = await api(employee, 'POST', path, mapping());
    expect(second.status).toBe(200);
    expect(second.body.formMappingDates).toHaveLength(2);
    expect((await api(provider, 'GET', `/v1/patients/${patientId}/allergies`)).body.items).toHaveLength(2);
    const socialAgain = (await api(provider, 'GET', `/v1/patients/${patientId}/social-history`)).body.items as { answers: unknown[] }[];
    expect(socialAgain[0].answers).toHaveLength(1);
    expect((await patientAuditTrail(patientId)).some((e) => e.action === 'create' && e.entity === 'social_history')).toBe(true);

    const foreign = await createTestUser({ email: `forms-map-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_forms_map' });
    expect((await api(foreign, 'POST', path, mapping())).status).toBe(403);
    expect((await api(null, 'POST', path, mapping())).status).toBe(401);
  });

  it("saves a submitted form's responses on its note, by question id, with the answers IntakeQ returned", async () => {
    const path = '/v2/practices/forms/responses';
    const body = (overrides: Record<string, unknown> = {}) => ({
      patientId,
      formId: NEW_PATIENT,
      noteId: submittedNoteId,
      questions: [{ id: 'allergies' }, { id: 'tobacco' }, { id: 'allergies' }],
      ...overrides,
    });
    const before = (await api(provider, 'GET', `/v1/notes/${submittedNoteId}`)).body;

    // Rules, in the spec's words where it has them.
    const none = await api(employee, 'POST', path, body({ questions: [] }));
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('questions must not be empty');
    const strange = await api(employee, 'POST', path, body({ questions: [{ id: 'not-asked' }] }));
    expect(strange.status).toBe(400);
    expect(strange.body.message).toBe(FORM_MESSAGES.unknownQuestion);
    const otherForm = await api(employee, 'POST', path, body({ formId: '5f1a2b3c4d5e6f7081920a2c' }));
    expect(otherForm.status).toBe(400);
    expect(otherForm.body.message).toBe(FORM_MESSAGES.formMismatch);
    const outside = await api(employee, 'POST', path, body({ file: 'private/pat-someone-else/intake.pdf' }));
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe(FORM_MESSAGES.fileOutsidePatient);
    expect((await api(employee, 'POST', path, body({ file: `private/${patientId}/../x/intake.pdf` }))).status).toBe(400);
    const notYet = (await send({ patientId, formId: NEW_PATIENT, sendMethod: 'Email' })).body;
    const early = await api(employee, 'POST', path, body({ noteId: notYet.noteId }));
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(FORM_MESSAGES.notSubmitted);
    expect((await api(employee, 'POST', path, body({ patientId: 'nobody' }))).status).toBe(404);
    const stranger = (await api(provider, 'POST', '/v1/patients', { firstName: 'Sam', lastName: `Other${run}`, gender: 'male', dob: '1970-01-01' })).body.id;
    expect((await api(employee, 'POST', path, body({ patientId: stranger }))).status).toBe(404);
    expect((await api(provider, 'GET', `/v1/notes/${submittedNoteId}`)).body.noteVersion).toBe(before.noteVersion);

    // Saved: the submission's text and answer for each id, once each, and the patient's file.
    const saved = await api(employee, 'POST', path, body({ file: `private/${patientId}/forms/new-patient-intake.pdf` }));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      questions: [
        { Id: 'allergies', Text: expect.stringContaining('allergic'), Answer: 'Penicillin\nPeanuts' },
        { Id: 'tobacco', Text: 'Do you smoke or use tobacco?', Answer: 'Former' },
      ],
      file: `private/${patientId}/forms/new-patient-intake.pdf`,
    });
    expect(saved.body.questions).toHaveLength(2);
    const note = (await api(provider, 'GET', `/v1/notes/${submittedNoteId}`)).body;
    expect(note.noteVersion).toBe(before.noteVersion + 1);
    expect(note.status).toBe(before.status);
    expect(note.data.savedResponses).toEqual(saved.body);
    expect((await patientAuditTrail(patientId)).filter((e) => e.action === 'update' && e.entityId === submittedNoteId).length).toBeGreaterThan(0);

    // Roles and tenancy.
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    const foreign = await createTestUser({ email: `forms-responses-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_forms_responses' });
    for (const token of [noAccess, foreign]) expect((await api(token, 'POST', path, body())).status).toBe(403);
    expect((await api(null, 'POST', path, body())).status).toBe(401);
    expect((await api(provider, 'GET', `/v1/notes/${submittedNoteId}`)).body.noteVersion).toBe(note.noteVersion);
  });

  it("expands {{form}} in a template to the patient's submitted form, with the responses the practice kept", async () => {
    const t = (await api(provider, 'POST', '/v1/practices/templates', { templateName: `Intake ${run}`, shortcut: `intake${run}`, body: 'Intake: {{form}}' }))
      .body;
    const res = await api(provider, 'POST', `/v1/templates/${t.templateId}/expand`, { patientId, timeZone: 'America/Chicago' });
    expect(res.status).toBe(200);
    expect(res.body.text).toMatch(
      /^Intake: New Patient Intake - submitted \d{2}\/\d{2}\/\d{4}\nAre you allergic[^\n]*: Penicillin; Peanuts\nDo you smoke or use tobacco\?: Former$/,
    );
    const bare = (await api(provider, 'POST', '/v1/patients', { firstName: 'No', lastName: `Forms${run}`, gender: 'male', dob: '1990-01-01' })).body.id;
    const none = await api(provider, 'POST', `/v1/templates/${t.templateId}/expand`, { patientId: bare });
    expect(none.body).toMatchObject({ text: 'Intake: ', unresolved: ['form'] });
    expect((await api(provider, 'POST', `/v1/templates/${t.templateId}/expand`, {})).body.message).toBe('Please select a patient');
  });

  it("sends by text through the practice's own carrier: the text carries the form's link and is in the patient's conversation; a resend texts it again", async () => {
    const local = (path: string) => fetch(`${stackOutputs().webUrl}${path}`);
    const phone = `+1971${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const display = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const bad = await send({ patientId, formId: '5f1a2b3c4d5e6f7081920a2c', sendMethod: 'SMS', phoneNumber: '12345678901234' });
    expect(bad.status).toBe(400);

    const res = await send({ patientId, formId: '5f1a2b3c4d5e6f7081920a2c', sendMethod: 'SMS', phoneNumber: display });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sendMethod: 'SMS', sentTo: display, formName: 'Annual Health Update' });
    const link: string = res.body.data.formUrl;
    expect(link).toBe(`${intakeQ().appUrl}/fill/${res.body.data.intakeId}`);
    // IntakeQ itself messaged nobody: its outbox has no entry for this intake.
    expect(await (await fetch(`${standIn()}/`)).text()).not.toContain(`/local/intakeq/fill/${res.body.data.intakeId}`);

    // The practice's carrier took the text, from the practice's number, with the link.
    const outbound = async () =>
      ((await (await local('/local/carrier/sms')).json()) as { messages: { from: string; to: string; text: string }[] }).messages.filter((m) => m.to === phone);
    const texts = await outbound();
    expect(texts).toHaveLength(1);
    expect(texts[0]!.text).toBe(`Tidewell Demo Clinic: please fill in Annual Health Update before your visit: ${link}`);
    // …and it is the patient's conversation's latest text, an SMS note of the patient.
    const conversations = (await api(provider, 'GET', `/v1/messaging/conversations?search=${encodeURIComponent(phone.slice(2))}`)).body.conversations as {
      conversationId: string;
      patientPhoneNumber: string;
    }[];
    const conversation = conversations.find((c) => c.patientPhoneNumber === phone)!;
    expect(conversation).toBeDefined();
    const messages = (await api(provider, 'GET', `/v1/messaging/conversations/${conversation.conversationId}/messages`)).body.messages as {
      text: string;
      patientId: string | null;
      direction: string;
    }[];
    expect(messages.map((m) => [m.text, m.patientId, m.direction])).toEqual([[texts[0]!.text, patientId, 'outbound']]);
    expect((await patientAuditTrail(patientId)).some((e) => e.action === 'create' && e.entity === 'sms-message')).toBe(true);

    // Resend: the same link, texted again by the carrier.
    const resent = await send({ intakeId: res.body.data.intakeId });
    expect(resent.status).toBe(200);
    expect((await outbound()).map((m) => m.text)).toEqual([texts[0]!.text, texts[0]!.text]);
    // Once submitted, there is nothing to resend.
    expect((await fill(res.body.data.intakeId, { changes: 'None' })).status).toBe(200);
    const late = await send({ intakeId: res.body.data.intakeId });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe(`${FORM_MESSAGES.resendFailed} ${FORM_MESSAGES.alreadySubmitted}`);
    expect(await outbound()).toHaveLength(2);

    // A phone that replied STOP is refused by the carrier: 422 in the spec's words, and no form is sent.
    const stopped = `+1971${String((Date.now() + 7) % 10_000_000).padStart(7, '0')}`;
    const stop = await fetch(`${stackOutputs().webUrl}/local/carrier/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: stopped, to: '+15415550100', text: 'STOP' }),
    });
    expect(stop.ok).toBe(true);
    const refused = await send({ patientId, formId: '5f1a2b3c4d5e6f7081920a2c', sendMethod: 'SMS', phoneNumber: stopped });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(new RegExp(`^${FORM_MESSAGES.sendFailed} `));
    expect(refused.body.message).toContain('opted out');
  });

  it('turns the form-send note (a FORM draft) into the sent form, once', async () => {
    const draft = (await api(employee, 'POST', '/v2/notes', { noteId: 'new', noteType: 'FORM', patientId, hidden: true })).body;
    expect(draft.status).toBe('DRAFT');
    const none = await send({ noteId: draft.noteId, patientId, formId: '', sendMethod: 'Email' }, employee);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain(FORM_MESSAGES.selectForm);
    const sent = await send({ noteId: draft.noteId, patientId, formId: NEW_PATIENT, sendMethod: 'Email', email: `other.${run}@example.com` }, employee);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ noteId: draft.noteId, status: 'SENT', noteVersion: draft.noteVersion + 1, data: { sentTo: `other.${run}@example.com` } });
    expect((await send({ noteId: draft.noteId, patientId, formId: NEW_PATIENT, sendMethod: 'Email' }, employee)).status).toBe(404);
  });

  it('saves a form mapping by the spec rules and reads it back', async () => {
    const question = {
      id: 'tobacco',
      title: 'Do you smoke or use tobacco?',
      enabled: true,
      section: 'SOCIAL_HISTORY',
      type: 'MultipleChoice',
      subType: null,
      titleOverride: '',
    };
    const refused = await api(employee, 'POST', '/v1/practices/form-mappings', { formId: NEW_PATIENT, questions: [question] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(FORM_MESSAGES.titleOverrideRequired);
    const saved = await api(employee, 'POST', '/v1/practices/form-mappings', {
      formId: NEW_PATIENT,
      questions: [
        { ...question, titleOverride: 'Tobacco use' },
        { id: 'allergies', title: 'Allergies', enabled: true, section: 'ALLERGIES', type: 'OpenQuestion', subType: 'Multiline', titleOverride: '' },
        // Cleared by hand: stays without a section, whatever its wording suggests.
        {
          id: 'conditions',
          title: 'Which medical conditions have you been diagnosed with? (one per line)',
          enabled: false,
          section: null,
          type: 'OpenQuestion',
          subType: 'Multiline',
          titleOverride: '',
        },
      ],
    });
    expect(saved.status).toBe(200);
    const read = await api(provider, 'GET', `/v1/practices/form-mappings/${NEW_PATIENT}`);
    expect(read.status).toBe(200);
    // The saved questions first, then every other question the form's submissions asked: not added,
    // in the section its wording names where one clearly fits.
    expect(read.body.formId).toBe(NEW_PATIENT);
    expect(read.body.questions.slice(0, 3)).toEqual([
      {
        id: 'tobacco',
        section: 'SOCIAL_HISTORY',
        enabled: true,
        titleOverride: 'Tobacco use',
        title: 'Do you smoke or use tobacco?',
        type: 'MultipleChoice',
        subType: null,
      },
      { id: 'allergies', section: 'ALLERGIES', enabled: true, titleOverride: '', title: 'Allergies', type: 'OpenQuestion', subType: 'Multiline' },
      {
        id: 'conditions',
        section: null,
        enabled: false,
        titleOverride: '',
        title: 'Which medical conditions have you been diagnosed with? (one per line)',
        type: 'OpenQuestion',
        subType: 'Multiline',
      },
    ]);
    expect(read.body.questions).toHaveLength(10);
    expect(read.body.questions).toContainEqual({
      id: 'occupation',
      section: 'SOCIAL_HISTORY',
      enabled: false,
      titleOverride: '',
      title: 'What is your occupation?',
      type: 'OpenQuestion',
      subType: null,
    });
    const sectionOf = (id: string) => (read.body.questions as { id: string; section: string | null }[]).find((q) => q.id === id)?.section;
    expect(sectionOf('medications')).toBe('MEDICATIONS');
    expect(sectionOf('family')).toBe('FAMILY_HISTORY');
    expect(sectionOf('concern')).toBeNull();
    expect((await api(provider, 'GET', '/v1/practices/form-mappings/never-mapped')).body).toEqual({ formId: 'never-mapped', questions: [] });
    // Another practice's mapping of the same form is its own.
    const foreign = await createTestUser({ email: `forms-mapping-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_forms_mapping' });
    expect((await api(foreign, 'POST', '/v1/practices/form-mappings', { formId: NEW_PATIENT, questions: [] })).status).toBe(403);
    expect((await api(employee, 'GET', `/v1/practices/form-mappings/${NEW_PATIENT}`)).body.questions[0]).toMatchObject({ id: 'tobacco', enabled: true });
  });

  it("opens IntakeQ's own app (its stand-in locally) on a given page", async () => {
    const res = await api(employee, 'GET', '/v2/practices/sso/intakeq?route=forms');
    expect(res.status).toBe(200);
    expect(res.body.ssoUrl).toBe(`${intakeQ().appUrl}/#/forms`);
    expect((await api(employee, 'GET', '/v2/practices/sso/intakeq?route=<script>')).status).toBe(400);
  });

  it('keeps roles and tenancy: no_access users, another practice and no token get nothing', async () => {
    const foreign = await createTestUser({ email: `forms-foreign-${run}@other.tidewell.local`, group: 'admin', practiceId: 'prc_other_forms' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    for (const token of [foreign, noAccess]) {
      expect((await api(token, 'GET', '/v2/practices/forms')).status).toBe(403);
      expect((await send({ patientId, formId: NEW_PATIENT, sendMethod: 'Email' }, token)).status).toBe(403);
      expect((await api(token, 'GET', `/v1/practices/form-mappings/${NEW_PATIENT}`)).status).toBe(403);
    }
    expect((await api(null, 'GET', '/v2/practices/forms')).status).toBe(401);
    expect((await api(null, 'POST', '/v1/practices/form-mappings', { formId: NEW_PATIENT, questions: [] })).status).toBe(401);
  });
});
