import * as z from '../zod.js';
import { LIMITS } from '../limits.js';

const idText = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id));

export const TEMPLATE_STATUSES = ['active', 'inactive'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_LIMITS = { templateName: 120, shortcut: 40, body: 50_000 } as const;

export const TEMPLATE_MESSAGES = {
  nameRequired: 'Template name is required',
  shortcutRequired: 'Shortcut is required',
  shortcutFormat: 'Shortcut may contain only letters, digits, hyphen and underscore',
  shortcutTaken: 'Another template already uses this shortcut',
  bodyRequired: 'Template body is required',
  notFound: 'Template not found',
  applyFailed: 'Failed to apply template',
  shortcodeNotFound: (shortcut: string) => `Shortcode ${shortcut} not found`,
  selectPatient: 'Please select a patient',
  notYours: 'This template is private to another user',
} as const;

export const Template = z.object({
  templateId: z.string(),
  templateName: z.string(),
  shortcut: z.string(),
  body: z.string(),
  /** Placeholder tokens the body uses, derived on save (e.g. ['first name', 'vitals']). */
  transformKeys: z.array(z.string()),
  status: z.enum(TEMPLATE_STATUSES),
  /** A private template is listed only for its owner. */
  private: z.boolean(),
  ownerUserId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Template = z.infer<typeof Template>;

const M = TEMPLATE_MESSAGES;
export const TemplateInput = z.object({
  templateName: z.string({ error: M.nameRequired }).check(z.trim(), z.minLength(1, M.nameRequired), z.maxLength(TEMPLATE_LIMITS.templateName)),
  shortcut: z
    .string({ error: M.shortcutRequired })
    .check(z.trim(), z.minLength(1, M.shortcutRequired), z.maxLength(TEMPLATE_LIMITS.shortcut), z.regex(/^[A-Za-z0-9_-]+$/, M.shortcutFormat)),
  body: z.string({ error: M.bodyRequired }).check(z.minLength(1, M.bodyRequired), z.maxLength(TEMPLATE_LIMITS.body)),
  status: z._default(z.enum(TEMPLATE_STATUSES), 'active'),
  private: z._default(z.boolean(), false),
});
export type TemplateInput = z.input<typeof TemplateInput>;

export const TemplateIdParams = z.object({ templateId: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) });

/** GET /v1/practices/templates?status=active&shortcut=so (prefix match on the shortcut, for the '/' menu). */
export const TemplateListQuery = z.object({
  status: z.optional(z.enum(TEMPLATE_STATUSES)),
  shortcut: z.optional(z.string().check(z.trim(), z.maxLength(TEMPLATE_LIMITS.shortcut))),
});

/** POST /v1/template-links */
export const TemplateLinkBody = z.object({ templateId: idText(), interactionId: idText() });
export type TemplateLinkBody = z.infer<typeof TemplateLinkBody>;

/** POST /v1/templates/{templateId}/expand  and  POST /v1/templates/expand-shortcut {shortcut,...} */
export const ExpandTemplateBody = z.object({
  patientId: z.optional(z.nullable(idText())),
  noteId: z.optional(idText()),
  /** The browser's IANA time zone, for {{date}} and {{time}}; UTC when absent. */
  timeZone: z.optional(z.string().check(z.trim(), z.maxLength(64))),
});
export const ExpandShortcutBody = z.extend(ExpandTemplateBody, { shortcut: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEMPLATE_LIMITS.shortcut)) });

export interface TemplateExpansion {
  templateId: string;
  text: string;
  formattedText: string;
  /** Known tokens that had no data for this patient and expanded to nothing. */
  unresolved: string[];
  /** Tokens the engine does not know; they are left in the text as typed. */
  unknown: string[];
}

/** GET /v1/practices/templates answers { templates }. */
export interface TemplateList {
  templates: Template[];
}
