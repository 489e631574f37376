import * as z from '../zod.js';

/** Spec shell §2.6 ePrescribe: the toasts while DoseSpot's window opens, and its failure text. */
export const DOSESPOT_MESSAGES = {
  signingIn: 'Signing into DoseSpot',
  signedIn: 'Successfully signed into DoseSpot',
  failed: 'There was an error logging into DoseSpot. Please try again.',
  eprescribingFailed: 'There was an error logging into the e-prescribing system. Please try again.',
} as const;

export const DoseSpotSsoQuery = z.strictObject({
  patientId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});
export type DoseSpotSsoQuery = z.infer<typeof DoseSpotSsoQuery>;

export interface DoseSpotSso {
  ssoUrl: string;
}

export const DoseSpotSyncQuery = z.strictObject({
  patientId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
});

export interface DoseSpotSyncResult {
  /** How many prescriptions became notes in this run (0 when all were synced before). */
  created: number;
  noteIds: string[];
}
