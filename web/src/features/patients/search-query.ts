import { isPhoneLike, normalizePhone, phoneDigits } from '../../../../shared/patients/phone.js';

/**
 * What the list sends as `q`: a phone-like entry is reduced to its digits (or the stored +1 form
 * when it is a whole number) so "(555) 01" and "555-01" search the same; names go as typed.
 */
export function searchQueryFor(input: string): string {
  const trimmed = input.trim();
  if (!trimmed) return '';
  if (isPhoneLike(trimmed)) return normalizePhone(trimmed) ?? phoneDigits(trimmed);
  return trimmed;
}
