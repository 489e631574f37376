import { normalizePhone, nationalDigits } from '../../../../../shared/patients/phone.js';
import type { Patient } from '../../../../../shared/patients/patient-schema.js';
import { usePatientSearch, usePatientsById } from '../../../lib/patients.js';

/**
 * The patients whose phones include this number (spec shell §2.10: a dropdown when several share
 * it). The conversation names them when it knows; otherwise the patient search by number does.
 */
export function usePatientsSharingPhone(phone: string | null, knownIds: readonly string[] | undefined): { patients: Patient[]; isPending: boolean } {
  const known = usePatientsById(knownIds ?? []);
  const digits = phone ? (nationalDigits(phone) ?? '') : '';
  const search = usePatientSearch(digits, { enabled: Boolean(digits) && (knownIds?.length ?? 0) === 0 });
  if (knownIds && knownIds.length > 0)
    return { patients: knownIds.flatMap((id) => (known.has(id) ? [known.get(id) as Patient] : [])), isPending: known.size < knownIds.length };
  const target = phone ? normalizePhone(phone) : null;
  const patients = (search.data?.items ?? []).filter(
    (p) => (p.phones ?? []).some((ph) => normalizePhone(ph.number) === target) || normalizePhone(p.primaryPhoneNumber ?? '') === target,
  );
  return { patients, isPending: search.isPending && Boolean(digits) };
}
