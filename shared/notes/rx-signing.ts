/** The fields of a user that decide whether they may sign a prescription. */
export interface PrescriptionSigner {
  veradigmUserType?: string | null;
  npiNumber?: string | null;
}

/**
 * Whether a user of this type may sign a prescription at all (StaffUser may not; no type needs an NPI).
 * Apart from rx.ts so every signed-in screen can tell whether to offer ePrescribe without the prescription rules and messages.
 */
export function maySignPrescription(u: PrescriptionSigner): boolean {
  if (u.veradigmUserType === 'StaffUser') return false;
  if (u.veradigmUserType) return true;
  return !!u.npiNumber;
}
