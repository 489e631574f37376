/** Partner texts and timings the shell needs before any schema loads (no zod here: /home's first download). */
export const PARTNER_MESSAGES = {
  fetchFailed: 'Failed to fetch interaction partner apps',
  /** The alert a partner's success message shows (the result screen's heading, spec shell §2.5). */
  success: 'Success!',
  notFound: 'Partner app not found',
  originNotAllowed: "This origin is not among the practice's partner origins; it must be added to the practice config (partnerOrigins) and deployed first.",
  badSignature: 'The delivery signature is not valid.',
  staleTimestamp: 'The delivery timestamp is too old or in the future.',
  unknownPartner: 'Unknown partner',
  wrongNote: 'The note is not a partner note of this partner app.',
  externalReadOnly: 'This note was written by an outside system and cannot be changed.',
  externalCreate: 'This note type is written by an outside system and cannot be created here.',
} as const;

/**
 * Membership windows (spec shell §4 Partner/membership windows): the core product's pages for a
 * patient, framed from the practice's membership origin under the partner windows' rules. The key
 * is the window's id part and the page's path on that origin.
 */
export const MEMBERSHIP_ACTIONS = {
  open: { label: 'Open membership', path: '/membership/open' },
  charges: { label: 'Create charges', path: '/membership/charges' },
  user: { label: 'Create user', path: '/membership/user' },
} as const;
export type MembershipAction = keyof typeof MEMBERSHIP_ACTIONS;
export const MEMBERSHIP_ACTION_KEYS = Object.keys(MEMBERSHIP_ACTIONS) as MembershipAction[];

/** Spec shell §9: a partner window closes 2000 ms after the partner asks it to. */
export const PARTNER_CLOSE_DELAY_MS = 2_000;

/** Note types only an outside system writes (through a signed delivery): read-only here. */
export const EXTERNAL_NOTE_TYPES = ['RX_VERADIGM', 'RX_DOSESPOT', 'ECONSULT_THEA'] as const;
export const isExternalNoteType = (t: string): boolean => (EXTERNAL_NOTE_TYPES as readonly string[]).includes(t);
