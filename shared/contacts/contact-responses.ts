/** What the contact endpoints answer (spec shell §8 Contact), read by the web client; a contact is the stored one. */
import * as z from '../zod.js';
import { Contact } from './contact-schema.js';

/** One contact as created, updated or listed. */
export const ContactRecord = Contact;

/** GET /v2/practices/contacts: one page, and where the next one starts. */
export const ContactPageAnswer = z.object({ contacts: z.array(ContactRecord), nextToken: z.optional(z.nullable(z.string())) });
