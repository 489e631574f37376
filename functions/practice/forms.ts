import { randomUUID } from 'node:crypto';
import { FORM_MESSAGES, INTAKEQ_PARTNER_ID } from '../../shared/forms/form-constants.js';
import {
  defaultMappingSection,
  type FormMappingBody,
  type FormNoteData,
  type FormSendBody,
  type FormsQuery,
  type FormSummary,
  formSmsText,
  type SavedFormMapping,
  type SavedFormResponses,
  type SaveFormResponsesBody,
  type SubmittedForm,
} from '../../shared/forms/forms.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { primaryPhone } from '../../shared/patients/patient-derived.js';
import { IntakeQClient, intakeDate, isSubmitted, parseIntakeQConfig, type IntakeQConfig } from '../lib/adapters/intakeq.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, DependencyError, HttpError, NotFoundError, ValidationError } from '../lib/errors.js';
import { MESSAGING_MESSAGES } from '../../shared/messaging/messaging-constants.js';
import { normalizePhone } from '../../shared/patients/phone.js';
import { getPractice } from '../data/practices/practice-repository.js';
import { getNote, writeNextVersion } from '../data/notes/note-repository.js';
import { formNoteOfIntake, getFormMappingRecords, putFormMapping, putResentFormNote, writeSentFormNote } from '../data/forms/form-intakes.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';
import { formDataOf } from '../data/forms/form-note-data.js';

export async function intakeQConfig(): Promise<IntakeQConfig | null> {
  return parseIntakeQConfig(await partnerSecretsFromEnv().secretOf(INTAKEQ_PARTNER_ID));
}

async function client(message: string): Promise<IntakeQClient> {
  const config = await intakeQConfig();
  if (!config) throw new DependencyError(503, message, 'INTAKEQ_NOT_CONFIGURED', { reason: FORM_MESSAGES.notConfigured });
  return new IntakeQClient(config);
}

async function vendor<T>(message: string, code: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DependencyError || error instanceof ValidationError || error instanceof NotFoundError) throw error;
    throw new DependencyError(502, message, code);
  }
}

/** GET /v2/practices/forms: the practice's questionnaires (archived ones left out). */
export async function listForms(): Promise<FormSummary[]> {
  const iq = await client(FORM_MESSAGES.sendFailed);
  const list = await vendor(FORM_MESSAGES.sendFailed, 'INTAKEQ_QUESTIONNAIRES_FAILED', () => iq.questionnaires());
  return list.map((q) => ({ id: String(q.Id), name: String(q.Name) })).sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /v2/practices/forms?status=submitted&patientId&formId: the patient's submitted intakes of that form. */
export async function submittedForms(auth: AuthContext, query: FormsQuery): Promise<SubmittedForm[]> {
  if (!query.patientId) throw new ValidationError('patientId is required', { patientId: 'is required' });
  const patient = await getPatient(auth.practiceId, query.patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const iq = await client(FORM_MESSAGES.sendFailed);
  const list = await vendor(FORM_MESSAGES.sendFailed, 'INTAKEQ_SUMMARY_FAILED', () => iq.summaries({ externalClientId: patient.id }));
  await writeAudit(auth, { action: 'read', entity: 'form-submissions', patientId: patient.id });
  return list
    .filter((s) => s.ExternalClientId === patient.id && isSubmitted(s.Status) && (!query.formId || String(s.QuestionnaireId) === query.formId))
    .map((s) => ({
      intakeId: String(s.Id),
      formId: String(s.QuestionnaireId),
      formName: s.QuestionnaireName,
      status: s.Status,
      dateSubmitted: intakeDate(s.DateSubmitted),
    }));
}

/**
 * POST /v2/practices/forms/send: IntakeQ sends the questionnaire (by email, or by text to the phone
 * number), and the chart gets a FORM note with status SENT; `intakeId` alone resends a sent form.
 */
export async function sendForm(auth: AuthContext, body: FormSendBody, now = new Date()): Promise<Note> {
  if (body.intakeId) return resendForm(auth, body.intakeId, now);
  const patient = await getPatient(auth.practiceId, body.patientId!);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  if (body.noteId) {
    // The form-send note: a FORM draft of this patient, not sent yet.
    const draft = await getNote(auth.practiceId, body.noteId);
    if (!draft || draft.noteType !== 'FORM' || (draft.status !== 'DRAFT' && draft.status !== 'HIDDEN') || (draft.patientId && draft.patientId !== patient.id))
      throw new NotFoundError('Form note not found');
  }
  const email = body.sendMethod === 'Email' ? body.email || patient.email || '' : '';
  const phone = body.sendMethod === 'SMS' ? body.phoneNumber || primaryPhone(patient) || '' : '';
  if (body.sendMethod === 'Email' && !email) throw new ValidationError(FORM_MESSAGES.emailRequired, { email: FORM_MESSAGES.emailRequired });
  if (body.sendMethod === 'SMS' && !phone) throw new ValidationError(FORM_MESSAGES.phoneRequired, { phoneNumber: FORM_MESSAGES.phoneRequired });
  // A text goes from the practice's own number (the messaging group's path, loaded only for SMS sends).
  const texting = body.sendMethod === 'SMS' ? await smsRoute(auth.practiceId, phone) : null;
  const iq = await client(FORM_MESSAGES.sendFailed);
  const forms = await vendor(FORM_MESSAGES.sendFailed, 'INTAKEQ_QUESTIONNAIRES_FAILED', () => iq.questionnaires());
  const formId = body.formId!;
  const form = forms.find((q) => String(q.Id) === formId);
  if (!form) throw new ValidationError(FORM_MESSAGES.selectForm, { formId: FORM_MESSAGES.selectForm });
  const intake = await vendor(FORM_MESSAGES.sendFailed, 'INTAKEQ_SEND_FAILED', () =>
    iq.send({
      questionnaireId: formId,
      clientName: `${patient.firstName} ${patient.lastName}`.trim(),
      email: email || undefined,
      externalClientId: patient.id,
    }),
  );
  if (!intake?.Id) throw new DependencyError(502, FORM_MESSAGES.sendFailed, 'INTAKEQ_SEND_FAILED');
  const formUrl = texting ? String(intake.Url ?? '') : '';
  if (texting) {
    if (!/^https?:\/\//.test(formUrl)) throw new DependencyError(502, FORM_MESSAGES.sendFailed, 'INTAKEQ_NO_URL');
    await textForm(auth, texting, patient.id, String(form.Name), formUrl, now);
  }
  const at = now.toISOString();
  const data: FormNoteData = {
    formId,
    formName: String(form.Name),
    sendMethod: body.sendMethod!,
    sentTo: email || phone,
    intakeId: String(intake.Id),
    dateSent: at,
    formMappingDates: [],
    ...(formUrl ? { formUrl } : {}),
  };
  const draft = body.noteId ? await getNote(auth.practiceId, body.noteId) : null;
  const base: Note = draft ?? {
    noteId: randomUUID(),
    noteType: 'FORM',
    status: 'SENT',
    signed: null,
    eventTimestamp: at,
    timestamp: at,
    createdAt: at,
    data: {},
    patientId: patient.id,
    hidden: false,
    files: [],
    author: { userId: auth.userId, name: auth.name, email: auth.email },
    onBehalfOf: null,
    noteVersion: 0,
    signedBy: null,
  };
  const note: Note = {
    ...base,
    status: 'SENT',
    patientId: patient.id,
    data: { ...base.data, ...data, text: `${data.formName} sent to ${data.sentTo}` },
    noteVersion: base.noteVersion + 1,
    timestamp: at,
  };
  await writeSentFormNote(auth.practiceId, note, draft ? draft.noteVersion : null, { intakeId: data.intakeId, patientId: patient.id, createdAt: at });
  await writeAudit(auth, { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
  return note;
}

interface SmsRoute {
  practicePhone: string;
  patientPhone: string;
}

/** The practice number that texts and the patient's phone, refused before IntakeQ is asked for anything. */
async function smsRoute(practiceId: string, phone: string): Promise<SmsRoute> {
  const patientPhone = normalizePhone(phone);
  if (!patientPhone) throw new ValidationError('Phone number is not valid', { phoneNumber: 'Phone number is not valid' });
  const { practiceNumbers } = await import('../core/messaging/sms-sending.js');
  const [practicePhone] = await practiceNumbers(practiceId);
  if (!practicePhone) throw new ValidationError(MESSAGING_MESSAGES.noPracticeNumber, { sendMethod: MESSAGING_MESSAGES.noPracticeNumber });
  return { practicePhone, patientPhone };
}

/**
 * Texts the form's link through the practice's SMS carrier, as the messaging screens send: an SMS
 * note in the patient's conversation, kept FAILED with why when the carrier refuses (then 422).
 */
async function textForm(auth: AuthContext, to: SmsRoute, patientId: string, formName: string, formUrl: string, now: Date): Promise<void> {
  const [{ sendSms, SmsNotSent }, { senderOf }, practice] = await Promise.all([
    import('../core/messaging/sms-sending.js'),
    import('../core/messaging/conversations.js'),
    getPractice(auth.practiceId),
  ]);
  try {
    const sent = await sendSms(
      auth.practiceId,
      await senderOf(auth),
      { ...to, text: formSmsText(practice?.practiceName ?? '', formName, formUrl), files: [], patientId },
      now,
    );
    await writeAudit(auth, { action: 'create', entity: 'sms-message', entityId: sent.message.messageId, patientId });
  } catch (error) {
    if (error instanceof SmsNotSent) {
      await writeAudit(auth, { action: 'create', entity: 'sms-message', entityId: error.failedMessage.messageId, patientId });
      throw new HttpError(422, `${FORM_MESSAGES.sendFailed} ${error.message}`, { reason: error.kind });
    }
    throw error;
  }
}

async function resendForm(auth: AuthContext, intakeId: string, now: Date): Promise<Note> {
  const note = await formNoteOfIntake(auth.practiceId, intakeId);
  if (!note) throw new NotFoundError(FORM_MESSAGES.intakeNotFound);
  const sent = formDataOf(note);
  if (sent.sendMethod === 'SMS' && sent.formUrl) {
    // Texted by the practice: the same link again, from the practice's number.
    if (note.status !== 'SENT') throw new ValidationError(`${FORM_MESSAGES.resendFailed} ${FORM_MESSAGES.alreadySubmitted}`);
    await textForm(auth, await smsRoute(auth.practiceId, sent.sentTo), note.patientId!, sent.formName, sent.formUrl, now);
  } else {
    const iq = await client(FORM_MESSAGES.resendFailed);
    await vendor(FORM_MESSAGES.resendFailed, 'INTAKEQ_RESEND_FAILED', () => iq.resend(intakeId));
  }
  // The form went out: its date goes on the note as it now is, even if the submission or an edit
  // changed it since it was read (read again and reapplied, a few times).
  const at = now.toISOString();
  let current = note;
  for (let attempt = 0; attempt < RESEND_DATE_ATTEMPTS; attempt += 1) {
    const next: Note = { ...current, data: { ...current.data, dateSent: at }, noteVersion: current.noteVersion + 1, timestamp: at };
    if (await putResentFormNote(auth.practiceId, next, current.noteVersion)) {
      await writeAudit(auth, { action: 'update', entity: 'NOTE', entityId: note.noteId, ...(note.patientId ? { patientId: note.patientId } : {}) });
      return next;
    }
    const reread = await formNoteOfIntake(auth.practiceId, intakeId);
    if (!reread) throw new NotFoundError(FORM_MESSAGES.intakeNotFound);
    current = reread;
  }
  throw new ConflictError(`${FORM_MESSAGES.resendFailed} The form's note kept changing; open it again.`);
}

const RESEND_DATE_ATTEMPTS = 3;

/**
 * GET /v1/practices/form-mappings/{formId}: the saved mapping, with every question the form's latest
 * submission asked (not mapped yet: disabled, in the section its wording names, if any), so the Forms
 * screen can edit it before use.
 */
export async function getFormMapping(auth: AuthContext, formId: string): Promise<SavedFormMapping> {
  const records = await getFormMappingRecords(auth.practiceId, formId);
  const saved = records.saved.map((q) => ({
    id: q.id,
    section: q.section ?? null,
    enabled: q.enabled === true,
    titleOverride: q.titleOverride ?? '',
    title: q.title ?? '',
    type: q.type ?? '',
    subType: q.subType ?? null,
  }));
  const savedIds = new Set(saved.map((q) => q.id));
  const asked = records.asked
    .filter((q) => !savedIds.has(q.id))
    .map((q) => ({
      id: q.id,
      section: defaultMappingSection({ title: q.title ?? '', type: q.type ?? '' }),
      enabled: false,
      titleOverride: '',
      title: q.title ?? '',
      type: q.type ?? '',
      subType: q.subType ?? null,
    }));
  return { formId, questions: [...saved, ...asked] };
}

/** POST /v1/practices/form-mappings: replaces the questionnaire's mapping for the whole practice. */
export async function saveFormMapping(auth: AuthContext, body: FormMappingBody, now = new Date()): Promise<SavedFormMapping> {
  const questions = body.questions.map((q) => ({
    id: q.id,
    title: q.title,
    enabled: q.enabled,
    section: q.section,
    type: q.type,
    subType: q.subType,
    titleOverride: q.titleOverride,
  }));
  await putFormMapping(auth.practiceId, body.formId, questions, now.toISOString(), auth.userId);
  return {
    formId: body.formId,
    questions: questions.map((q) => ({
      id: q.id,
      section: q.section,
      enabled: q.enabled,
      titleOverride: q.titleOverride,
      title: q.title,
      type: q.type,
      subType: q.subType,
    })),
  };
}

/**
 * POST /v2/practices/forms/responses: keeps the chosen answers of the patient's submitted form on
 * its FORM note. Only question ids travel: text and answer are taken from the submission IntakeQ
 * returned, so the kept responses cannot differ from what the patient wrote.
 */
export async function saveFormResponses(auth: AuthContext, body: SaveFormResponsesBody, now = new Date()): Promise<SavedFormResponses> {
  const patient = await getPatient(auth.practiceId, body.patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const note = await getNote(auth.practiceId, body.noteId);
  if (!note || note.noteType !== 'FORM' || note.patientId !== patient.id || note.status === 'DELETED') throw new NotFoundError('Form note not found');
  const data = formDataOf(note);
  if (data.formId !== body.formId) throw new ValidationError(FORM_MESSAGES.formMismatch, { formId: FORM_MESSAGES.formMismatch });
  if (note.status !== 'DELIVERED' && note.status !== 'FULFILLED') throw new ValidationError(FORM_MESSAGES.notSubmitted);
  const byId = new Map((data.submissionData?.Questions ?? []).map((q) => [q.Id, q]));
  const unknown = body.questions.find((q) => !byId.has(q.id));
  if (unknown) throw new ValidationError(FORM_MESSAGES.unknownQuestion, { questions: FORM_MESSAGES.unknownQuestion });
  const file = body.file?.trim() || null;
  // A key of the patient's own folder (…/{patientId}/…), never another chart's file.
  if (file && !file.split('/').slice(0, -1).includes(patient.id))
    throw new ValidationError(FORM_MESSAGES.fileOutsidePatient, { file: FORM_MESSAGES.fileOutsidePatient });
  const seen = new Set<string>();
  const questions = body.questions
    .filter((q) => !seen.has(q.id) && seen.add(q.id))
    .map((q) => {
      const answered = byId.get(q.id)!;
      return { Id: answered.Id, Text: answered.Text, Answer: answered.Answer };
    });
  const saved: SavedFormResponses = { questions, file, savedAt: now.toISOString(), savedBy: auth.userId };
  await writeNextVersion(auth.practiceId, note, { data: { ...note.data, savedResponses: saved } as Note['data'] }, now);
  await writeAudit(auth, { action: 'update', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
  return saved;
}

/** GET /v2/practices/sso/intakeq[?route=]: IntakeQ's own app (locally, its stand-in), on the given page. */
export async function intakeQSso(route: string | undefined): Promise<{ ssoUrl: string }> {
  const config = await intakeQConfig();
  if (!config) throw new DependencyError(503, FORM_MESSAGES.notConfigured, 'INTAKEQ_NOT_CONFIGURED');
  return { ssoUrl: `${config.appUrl}/#/${(route ?? '').replace(/^\/+/, '')}` };
}
