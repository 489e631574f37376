/**
 * Spec shell §2.6 ePrescribe: the toasts while DoseSpot's window opens, and its failure text; apart
 * from the DoseSpot schemas so the web's shell shows them without the schema library.
 */
export const DOSESPOT_MESSAGES = {
  signingIn: 'Signing into DoseSpot',
  signedIn: 'Successfully signed into DoseSpot',
  failed: 'There was an error logging into DoseSpot. Please try again.',
  eprescribingFailed: 'There was an error logging into the e-prescribing system. Please try again.',
} as const;
