/**
 * What the contact endpoints answer (spec shell §8 Contact), read by the web client. Kept apart so
 * the practice Lambda, which builds these answers from the interfaces, does not bundle the schemas.
 */
import * as z from '../zod.js';

/** One contact as created, updated or listed. */
export const ContactRecord = z.object({
  contactId: z.string(),
  name: z.string(),
  lastName: z.nullable(z.string()),
  phoneNumber: z.nullable(z.string()),
  faxNumber: z.nullable(z.string()),
  email: z.nullable(z.string()),
  groups: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** GET /v2/practices/contacts: one page, and where the next one starts. */
export const ContactPageAnswer = z.object({ contacts: z.array(ContactRecord), nextToken: z.optional(z.nullable(z.string())) });
