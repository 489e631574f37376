import type { CopilotPatientProfile } from '../../../shared/ai/copilot-schema.js';
import { age, fullName } from '../../../shared/patients/patient-derived.js';
import { listSection, type ChartSectionName } from '../../data/chart/chart-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { NotFoundError } from '../../lib/errors.js';
import { getPatient, PATIENT_NOT_FOUND } from '../../data/patients/patient-repository.js';

type Row = Record<string, unknown>;
const SECTIONS = ['allergies', 'diagnoses', 'medications', 'freeformMedications'] as const satisfies readonly ChartSectionName[];
/** Items per section the model sees: the active and pinned ones first. */
const PER_SECTION = 30;

export interface PatientContext {
  profile: CopilotPatientProfile;
  /** Plain text the model reads as part of its instructions; never logged. */
  text: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function isActive(row: Row): boolean {
  if (row.active === false) return false;
  if (row.status === 'Complete') return false;
  return true;
}

function line(section: (typeof SECTIONS)[number], row: Row): string {
  switch (section) {
    case 'allergies':
      return [str(row.name), str(row.severity) && `severity ${str(row.severity)}`, str(row.description)].filter(Boolean).join(', ');
    case 'diagnoses':
      return [str(row.name), str(row.description), str(row.date) && `since ${str(row.date)}`].filter(Boolean).join(', ');
    case 'medications':
      return [str(row.productName), [str(row.strength), str(row.strengthUOM)].filter(Boolean).join(' '), str(row.sigText)].filter(Boolean).join(', ');
    case 'freeformMedications':
      return [str(row.name) || str(row.productName) || str(row.text), str(row.description)].filter(Boolean).join(', ');
  }
}

const HEADINGS: Record<(typeof SECTIONS)[number], string> = {
  allergies: 'Allergies',
  diagnoses: 'Diagnoses',
  medications: 'Medications',
  freeformMedications: 'Other medications',
};

/**
 * The chart as the Copilot reads it, from the table (never from the browser), and the PHI read is
 * audited. Called only once a model is configured, so nothing is read for a model that is not there.
 */
export async function readPatientContext(auth: AuthContext, patientId: string, now = new Date()): Promise<PatientContext> {
  const patient = await getPatient(auth.practiceId, patientId);
  if (!patient || patient.status === 'DELETED') throw new NotFoundError(PATIENT_NOT_FOUND);
  const [sections, history] = await Promise.all([
    Promise.all(SECTIONS.map((s) => listSection(auth.practiceId, patientId, s))),
    // The notes' schema is heavy: loaded only when a chart is read, not on the ai function's cold start.
    import('./patient-history.js').then((m) => m.patientHistoryLines(auth.practiceId, patientId, now)),
  ]);
  await writeAudit(auth, { action: 'read', entity: 'copilot-patient-context', entityId: patientId, patientId });
  const profile: CopilotPatientProfile = {
    patientId,
    firstName: patient.firstName,
    lastName: patient.lastName,
    fullName: fullName(patient),
    age: age(patient, now),
  };
  const lines = [
    `Patient: ${profile.fullName}${profile.age === null ? '' : `, ${profile.age} years old`}${patient.gender ? `, ${patient.gender}` : ''}${patient.dob ? `, born ${patient.dob}` : ''}.`,
  ];
  SECTIONS.forEach((section, i) => {
    const rows = sections[i]
      .filter(isActive)
      .sort((a, b) => Number(b.pinned === true) - Number(a.pinned === true))
      .slice(0, PER_SECTION)
      .map((r) => line(section, r))
      .filter(Boolean);
    lines.push(`${HEADINGS[section]}: ${rows.length ? rows.join('; ') : 'none recorded'}.`);
  });
  lines.push(...history);
  return { profile, text: lines.join('\n') };
}
