import * as z from '../zod.js';
import { LIMITS } from '../limits.js';
import { isAllowedPhoneInput, normalizePhone } from '../patients/phone.js';

/**
 * Practice contacts (spec chart-data §3, shell §7.8): the practice's book of outside people and
 * places (specialists, pharmacies, labs) with a phone, a fax and an email.
 */
export const CONTACT_MESSAGES = {
  missingId: 'Cannot update contact without contact ID',
  invalidPhone: 'Enter a valid phone number',
  nameRequired: 'Name is required',
  needsWayToReach: 'Enter a phone number, a fax number or an email',
  notFound: 'Contact not found',
  saved: 'Contact saved',
  saveError: 'Failed to save the contact',
  deleted: 'Contact deleted',
  deleteError: 'Failed to delete the contact',
} as const;

/** A practice keeps at most this many contacts. */
export const CONTACTS_MAX = 2000;
/** GET /v2/practices/contacts answers one page of the book in name order; a search looks through at most `searchScan` of it per page. */
export const CONTACT_PAGE = { size: 50, max: 100, searchScan: 150 } as const;
export const CONTACT_GROUPS_MAX = 20;

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));

/** A phone or fax number as typed, stored as +1 and ten digits; empty means none. */
export const ContactNumber = z.pipe(
  z.string().check(
    z.trim(),
    z.maxLength(40),
    z.refine((v) => v === '' || isAllowedPhoneInput(v), CONTACT_MESSAGES.invalidPhone),
  ),
  z.transform((v, ctx) => {
    if (v === '') return null;
    const normalized = normalizePhone(v);
    if (!normalized) ctx.issues.push({ code: 'custom', message: CONTACT_MESSAGES.invalidPhone, input: ctx.value });
    return normalized ?? v;
  }),
);

const Email = z.pipe(
  z.string().check(
    z.trim(),
    z.maxLength(254),
    z.refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Enter a valid email'),
  ),
  z.transform((v) => (v === '' ? null : v.toLowerCase())),
);

/** POST /v2/practices/contacts and POST /v2/practices/contacts/{contactId}: the whole contact. */
export const ContactInput = z
  .object({
    name: text(LIMITS.shortText).check(z.minLength(1, CONTACT_MESSAGES.nameRequired), z.maxLength(200)),
    lastName: z.optional(z.nullable(text(200))),
    phoneNumber: z.optional(z.nullable(ContactNumber)),
    faxNumber: z.optional(z.nullable(ContactNumber)),
    email: z.optional(z.nullable(Email)),
    groups: z.optional(z.array(text(80).check(z.minLength(1))).check(z.maxLength(CONTACT_GROUPS_MAX))),
  })
  .check(z.refine((c) => Boolean(c.phoneNumber || c.faxNumber || c.email), { message: CONTACT_MESSAGES.needsWayToReach, path: ['phoneNumber'] }));
export type ContactInput = z.input<typeof ContactInput>;

/** A contact as stored and answered. */
export const Contact = z.object({
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
export type Contact = z.infer<typeof Contact>;

/** 'undefined' and 'null' are what a client sends for a contact it never saved. */
export const ContactIdParams = z.object({
  contactId: z.string().check(
    z.trim(),
    z.refine((v) => v.length > 0 && v !== 'undefined' && v !== 'null', CONTACT_MESSAGES.missingId),
    z.maxLength(LIMITS.id),
    z.regex(/^[A-Za-z0-9_-]*$/, CONTACT_MESSAGES.notFound),
  ),
});
export const ContactDeleteParams = z.object({ id: ContactIdParams.shape.contactId });

/**
 * Spec shell §7.8 fixes `?phoneNumber=`; the rest is optional paging: `limit`, the `nextToken` of the
 * page before, a `search` over names, numbers and emails, and `contactId` for one contact.
 */
export const ContactListQuery = z.object({
  phoneNumber: z.optional(ContactNumber),
  contactId: z.optional(z.string().check(z.maxLength(LIMITS.id, CONTACT_MESSAGES.notFound), z.regex(/^[A-Za-z0-9_-]+$/, CONTACT_MESSAGES.notFound))),
  search: z.optional(text(100)),
  limit: z._default(
    z.coerce
      .number({ error: 'limit must be a whole number' })
      .check(z.int('limit must be a whole number'), z.gte(1, 'limit must be at least 1'), z.lte(CONTACT_PAGE.max, `limit must be at most ${CONTACT_PAGE.max}`)),
    CONTACT_PAGE.size,
  ),
  nextToken: z.optional(z.string().check(z.maxLength(1400, 'Invalid nextToken'), z.regex(/^[A-Za-z0-9_-]*$/, 'Invalid nextToken'))),
});

/** One page of the book; `nextToken` asks for the next, null after the last. */
export interface ContactPage {
  contacts: Contact[];
  nextToken?: string | null;
}

export const contactFullName = (c: Pick<Contact, 'name' | 'lastName'>) => [c.name, c.lastName].filter(Boolean).join(' ');

/**
 * Spec shell §9: contact search weighs a match in the email at 0.5, a match in the name, last name,
 * phone or fax at 1. A contact scores the sum over the query's words of its best field weight for
 * that word (an earlier match in the field ranks a little higher); every word must match somewhere.
 */
export const CONTACT_SEARCH_WEIGHTS = { name: 1, lastName: 1, phoneNumber: 1, faxNumber: 1, email: 0.5 } as const;

export function contactSearchScore(contact: Pick<Contact, keyof typeof CONTACT_SEARCH_WEIGHTS>, query: string): number {
  // A typed number, spaces and brackets included, is one search term.
  const words = /^[+\d()\s.-]+$/.test(query.trim()) ? [query.replace(/\D/g, '')].filter(Boolean) : query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return 1;
  let total = 0;
  for (const word of words) {
    const digits = word.replace(/\D/g, '');
    let best = 0;
    for (const [field, weight] of Object.entries(CONTACT_SEARCH_WEIGHTS) as [keyof typeof CONTACT_SEARCH_WEIGHTS, number][]) {
      const value = (contact[field] ?? '').toLowerCase();
      if (!value) continue;
      const isNumber = field === 'phoneNumber' || field === 'faxNumber';
      const at = isNumber ? (digits.length >= 3 ? value.replace(/\D/g, '').indexOf(digits) : -1) : value.indexOf(word);
      if (at < 0) continue;
      const score = weight * (at === 0 ? 1 : 0.9);
      if (score > best) best = score;
    }
    if (best === 0) return 0;
    total += best;
  }
  return total;
}

/** The contacts matching every word, best score first, then by name. */
export function searchContacts<C extends Contact>(contacts: readonly C[], query: string): C[] {
  return contacts
    .map((c) => ({ c, score: contactSearchScore(c, query) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || contactFullName(a.c).localeCompare(contactFullName(b.c)))
    .map((r) => r.c);
}
