/**
 * What the template endpoints answer, read by the web client (the template itself is Template in
 * template-schema.ts, which both sides use).
 */
import * as z from '../zod.js';
import { Template } from './template-schema.js';

/** GET /v1/practices/templates[?status]: the practice's templates and the caller's private ones. */
export const TemplateListAnswer = z.object({ templates: z.array(Template) });

/** DELETE /v1/practices/templates/{templateId}. */
export const TemplateRemoved = z.object({ templateId: z.string() });

/** POST /v1/templates/{templateId}/expand: the body filled from the patient's chart. */
export const TemplateExpansionAnswer = z.object({
  templateId: z.string(),
  text: z.string(),
  formattedText: z.string(),
  unresolved: z.array(z.string()),
  unknown: z.array(z.string()),
});

/** POST /v1/template-links: the link as recorded. */
export const TemplateLinked = z.object({ templateId: z.string(), interactionId: z.string(), linkedBy: z.string(), linkedAt: z.string() });
