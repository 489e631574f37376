import * as z from '../zod.js';

/**
 * Intake forms through IntakeQ (spec notes §3, §5, §8; chart-data §3 Intake-form mapping, §4, §5,
 * §8; shell §7.7): the practice's questionnaires, sending and resending one, the submissions, and
 * the mapping of a submission's answers into the chart.
 */
export { FORM_MESSAGES, INTAKEQ_PARTNER_ID } from './form-constants.js';
import { FORM_MESSAGES } from './form-constants.js';

export const SEND_METHODS = ['Email', 'SMS'] as const;
export type SendMethod = (typeof SEND_METHODS)[number];

/** The chart sections a question maps into; the last two are health history (a question with answers, a titled item). */
export const MAPPING_SECTIONS = ['MEDICATIONS', 'ALLERGIES', 'MEDICAL_CONDITIONS', 'SURGERIES', 'FAMILY_HISTORY', 'SOCIAL_HISTORY', 'GENERAL'] as const;
export type MappingSection = (typeof MAPPING_SECTIONS)[number];
export const HEALTH_HISTORY_SECTIONS: readonly MappingSection[] = ['SOCIAL_HISTORY', 'GENERAL'];
export const MAPPING_SECTION_LABELS: Record<MappingSection, string> = {
  MEDICATIONS: 'Medications',
  ALLERGIES: 'Allergies',
  MEDICAL_CONDITIONS: 'Medical Conditions',
  SURGERIES: 'Surgeries',
  FAMILY_HISTORY: 'Family History',
  SOCIAL_HISTORY: 'Social',
  GENERAL: 'General',
};
/** Spec chart-data §5: the title override is editable only for the General and Social sections. */
export const titleOverrideEditable = (section: MappingSection | undefined | null) => !!section && HEALTH_HISTORY_SECTIONS.includes(section);

const id = (label: string) => z.string({ error: `${label} is required` }).check(z.trim(), z.minLength(1, `${label} is required`), z.maxLength(100));
const text = (max: number) => z.string().check(z.maxLength(max));

/** Form statuses of the form note (spec notes §4): sent, then submitted, then fulfilled. */
export const FORM_NOTE_STATUS = { sent: 'SENT', submitted: 'DELIVERED', fulfilled: 'FULFILLED' } as const;
export const formStatusLabel = (status: string) => (status === 'FULFILLED' ? 'fulfilled' : status === 'DELIVERED' ? 'submitted' : 'sent');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** POST /v2/practices/forms/send: a new form to a patient, or `intakeId` alone to resend one. */
export const FormSendBody = z
  .strictObject({
    intakeId: z.optional(id('intakeId')),
    /** The form-send note (a FORM draft) that becomes the sent form; without it a new FORM note is written. */
    noteId: z.optional(id('noteId')),
    patientId: z.optional(id('patientId')),
    formId: z.optional(z.nullable(z.string({ error: FORM_MESSAGES.selectForm }).check(z.trim(), z.maxLength(100)))),
    sendMethod: z.optional(z.enum(SEND_METHODS, { error: 'sendMethod must be Email or SMS' })),
    email: z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(254),
        z.refine((v) => v === '' || EMAIL.test(v), 'Email is not valid'),
      ),
    ),
    phoneNumber: z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(20),
        z.refine((v) => v === '' || /^\+?[0-9 ()-]{10,20}$/.test(v), 'Phone number is not valid'),
      ),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.intakeId) return;
      // Spec notes §5: sending a form requires a selected form.
      if (!v.formId) ctx.issues.push({ code: 'custom', message: FORM_MESSAGES.selectForm, input: v.formId, path: ['formId'] });
      if (!v.patientId) ctx.issues.push({ code: 'custom', message: 'patientId is required', input: v.patientId, path: ['patientId'] });
      if (!v.sendMethod) ctx.issues.push({ code: 'custom', message: 'sendMethod must be Email or SMS', input: v.sendMethod, path: ['sendMethod'] });
    }),
  );
export type FormSendBody = z.infer<typeof FormSendBody>;

export const FormsQuery = z.strictObject({
  status: z.optional(z.enum(['submitted'], { error: 'status must be submitted' })),
  patientId: z.optional(id('patientId')),
  formId: z.optional(id('formId')),
});
export type FormsQuery = z.infer<typeof FormsQuery>;

export const IntakeQSsoQuery = z.strictObject({
  route: z.optional(z.string().check(z.trim(), z.maxLength(200), z.regex(/^[A-Za-z0-9/_-]*$/, 'route is not valid'))),
});

export interface FormSummary {
  id: string;
  name: string;
}

export interface SubmittedForm {
  intakeId: string;
  formId: string;
  formName: string;
  status: string;
  dateSubmitted: string | null;
}

/** A submitted question as the form note keeps it (spec notes §3 Submission). */
export interface SubmissionQuestion {
  Id: string;
  Text: string;
  Answer: string;
  QuestionType: string;
  QuestionSubType?: string | null;
}
export interface SubmissionData {
  Status: string;
  DateSubmitted: string | null;
  QuestionnaireId: string;
  Questions: SubmissionQuestion[];
}

/** The text a form sent by SMS goes out as, from the practice's own number. */
export const formSmsText = (practiceName: string, formName: string, url: string) =>
  `${practiceName.trim() || 'Your practice'}: please fill in ${formName} before your visit: ${url}`;

/** The FORM note's data. The IntakeQ submission and the saved responses are kept as the server wrote them. */
export const FormNoteData = z.object({
  formId: z.string(),
  formName: z.string(),
  sendMethod: z.enum(SEND_METHODS),
  sentTo: z.string(),
  intakeId: z.string(),
  /** The patient's page of the intake, texted by the practice's carrier (SMS sends only). */
  formUrl: z.optional(z.string()),
  dateSent: z.string(),
  dateSubmitted: z.optional(z.nullable(z.string())),
  numberOfQuestions: z.optional(z.number()),
  submissionData: z.optional(z.custom<SubmissionData>()),
  formMappingDates: z.optional(z.array(z.string())),
  savedResponses: z.optional(z.custom<SavedFormResponses>()),
  /** Brought in from another record (a FHIR QuestionnaireResponse): answered, but never sent through IntakeQ, so no intake to resend or map. */
  imported: z.optional(z.boolean()),
  /** The canonical of the Questionnaire it answered, as the record it came from names it. */
  questionnaire: z.optional(z.string()),
});
export type FormNoteData = z.infer<typeof FormNoteData>;

export const MappingSectionSchema = z.enum(MAPPING_SECTIONS, { error: `section must be one of ${MAPPING_SECTIONS.join(', ')}` });

const mappingQuestionFields = {
  id: id('id'),
  title: z._default(text(2000), ''),
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  section: z.pipe(
    z.transform((v) => (v === '' ? null : v)),
    z.nullable(MappingSectionSchema),
  ),
  type: z._default(text(100), ''),
  subType: z.pipe(
    z.transform((v) => (v === undefined ? null : v)),
    z.nullable(text(100)),
  ),
  titleOverride: z.pipe(
    z.transform((v) => (v === undefined || v === null ? '' : v)),
    z.string().check(z.trim(), z.maxLength(200)),
  ),
};

/** Spec chart-data §5: an enabled health-history question needs a titleOverride; an enabled question needs a section. */
export function mappingErrors(
  questions: readonly { id: string; enabled: boolean; section: MappingSection | null; titleOverride: string }[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const q of questions) {
    if (!q.enabled) continue;
    if (!q.section) errors[q.id] = 'Choose a section';
    else if (titleOverrideEditable(q.section) && !q.titleOverride.trim()) errors[q.id] = FORM_MESSAGES.titleOverrideRequired;
  }
  return errors;
}

const withMappingRules = <T extends { questions: { id: string; enabled: boolean; section: MappingSection | null; titleOverride: string }[] }>(
  v: T,
  ctx: z.core.$RefinementCtx,
) => {
  v.questions.forEach((q, i) => {
    const error = mappingErrors([q])[q.id];
    if (error) ctx.issues.push({ code: 'custom', message: error, input: q, path: ['questions', i, 'titleOverride'] });
  });
};

export const FormMappingQuestion = z.object(mappingQuestionFields);
export type FormMappingQuestion = z.infer<typeof FormMappingQuestion>;

/** POST /v1/practices/form-mappings */
export const FormMappingBody = z
  .strictObject({ formId: id('formId'), questions: z.array(FormMappingQuestion, { error: 'questions must be a list' }).check(z.maxLength(500)) })
  .check(z.superRefine(withMappingRules));
export type FormMappingBody = z.infer<typeof FormMappingBody>;

export const FormIdParams = z.object({ formId: id('formId') });

export interface SavedFormMapping {
  formId: string;
  /** Spec: id, section, enabled, titleOverride; with the question's title and type, to edit it where no submission is open. */
  questions: { id: string; section: MappingSection | null; enabled: boolean; titleOverride: string; title: string; type: string; subType: string | null }[];
}

/** POST /v2/patients/{id}/map-health-history: the answers to write, each with its mapping. */
export const MapHealthHistoryBody = z
  .strictObject({
    noteId: id('noteId'),
    formId: id('formId'),
    questions: z
      .array(z.extend(FormMappingQuestion, { answer: z._default(text(4000), '') }), { error: 'questions must be a list' })
      .check(z.minLength(1, 'questions must not be empty'), z.maxLength(500)),
  })
  .check(z.superRefine(withMappingRules));
export type MapHealthHistoryBody = z.infer<typeof MapHealthHistoryBody>;

/**
 * Save form responses (spec chart-data §7, notes §7: patientId; formId, noteId, questions, file;
 * path not shown, here POST /v2/practices/forms/responses): the answers of a submitted form the
 * practice keeps with its FORM note, by question id (the text and answer come from the submission
 * itself), and optionally a file of the patient's folder that holds the filled form.
 */
export const SaveFormResponsesBody = z.strictObject({
  patientId: id('patientId'),
  formId: id('formId'),
  noteId: id('noteId'),
  questions: z.array(z.object({ id: id('id') }), { error: 'questions must be a list' }).check(z.minLength(1, 'questions must not be empty'), z.maxLength(500)),
  file: z.optional(
    z.nullable(
      z.string().check(
        z.trim(),
        z.maxLength(600),
        z.refine((v) => !v.split('/').includes('..'), 'file is not valid'),
      ),
    ),
  ),
});
export type SaveFormResponsesBody = z.infer<typeof SaveFormResponsesBody>;

/** The responses kept on the FORM note (its data.savedResponses). */
export interface SavedFormResponses {
  questions: { Id: string; Text: string; Answer: string }[];
  file: string | null;
  savedAt: string;
  savedBy: string;
}

export interface MapHealthHistoryResult {
  written: { section: MappingSection; ident: string }[];
  formMappingDates: string[];
}

/**
 * Spec chart-data §5: only enabled questions with an answer are written. A list answer (one item
 * per line, or separated by commas or semicolons) becomes one chart item per entry in the list
 * sections; health history keeps the answer whole.
 */
export function answerEntries(section: MappingSection, answer: string): string[] {
  const trimmed = answer.trim();
  if (!trimmed) return [];
  if (titleOverrideEditable(section)) return [trimmed];
  return trimmed
    .split(/\r?\n|;|,/)
    .map((s) => s.trim())
    .filter((s) => s && !/^(none|n\/a|no)$/i.test(s));
}

/**
 * The section a question goes into until someone maps it: read from its wording, where one section
 * clearly fits, so a submitted intake does not need a section picked for every question. The list
 * sections take one chart item per line of the answer, so only a free-text question defaults there
 * (a yes/no "Any allergies?" would otherwise add an allergy called "Yes"); social history keeps any
 * answer whole. Family comes first ("conditions that run in your family"), then allergies ("allergic
 * to any medications"), then social ("recreational drugs"). A saved mapping always wins over this.
 */
export function defaultMappingSection(question: { title: string; type?: string | null }): MappingSection | null {
  const text = question.title.toLowerCase();
  const freeText = !question.type || question.type === 'OpenQuestion';
  const list = (section: MappingSection) => (freeText ? section : null);
  if (/\b(family|parents?|mother|father|siblings?|brothers?|sisters?|grandparents?|relatives?)\b/.test(text)) return list('FAMILY_HISTORY');
  if (/\ballerg/.test(text)) return list('ALLERGIES');
  if (
    /\b(smoke|smoking|tobacco|vape|vaping|nicotine|alcohol|alcoholic|drinks?|recreational|exercise|occupation|work|caffeine|coffee|diet|sexually|marital)\b/.test(
      text,
    )
  )
    return 'SOCIAL_HISTORY';
  if (/\b(surgery|surgeries|surgical|operations?)\b/.test(text)) return list('SURGERIES');
  if (/\b(medications?|medicines?|prescriptions?|supplements?|vitamins?)\b/.test(text)) return list('MEDICATIONS');
  if (/\b(conditions?|diagnos[ei]s|diagnosed|illness(es)?|diseases?|medical problems?)\b/.test(text)) return list('MEDICAL_CONDITIONS');
  return null;
}
