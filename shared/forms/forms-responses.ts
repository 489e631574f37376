/**
 * What the intake form endpoints answer (forms.ts), read by the web client. Kept apart so the
 * practice Lambda, which builds these answers from the interfaces, does not bundle the schemas.
 */
import * as z from '../zod.js';
import { MAPPING_SECTIONS } from './forms.js';

/** GET /v2/practices/forms: the practice's IntakeQ questionnaires. */
export const FormSummaryList = z.array(z.object({ id: z.string(), name: z.string() }));

/** GET /v2/practices/sso/intakeq: a signed-in link into IntakeQ's app. */
export const IntakeQSsoLink = z.object({ ssoUrl: z.string() });

/** GET /v1/practices/form-mappings/{formId} and POST /v1/practices/form-mappings. */
export const SavedFormMappingAnswer = z.object({
  formId: z.string(),
  questions: z.array(
    z.object({
      id: z.string(),
      section: z.nullable(z.enum(MAPPING_SECTIONS)),
      enabled: z.boolean(),
      titleOverride: z.string(),
      title: z.string(),
      type: z.string(),
      subType: z.nullable(z.string()),
    }),
  ),
});

/** POST /v2/practices/forms/responses: the answers kept on the FORM note. */
export const SavedFormResponsesAnswer = z.object({
  // Copied from IntakeQ's submission, which leaves an unanswered question's answer null.
  questions: z.array(
    z.object({
      Id: z.string(),
      Text: z.string(),
      Answer: z.pipe(
        z.nullish(z.string()),
        z.transform((v) => v ?? ''),
      ),
    }),
  ),
  file: z.nullable(z.string()),
  savedAt: z.string(),
  savedBy: z.string(),
});

/** POST /v2/patients/{patientId}/map-health-history: the chart items written, and the mapping dates. */
export const MapHealthHistoryAnswer = z.object({
  written: z.array(z.object({ section: z.enum(MAPPING_SECTIONS), ident: z.string() })),
  formMappingDates: z.array(z.string()),
});
