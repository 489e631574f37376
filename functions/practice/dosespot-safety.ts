/**
 * The allergy and interaction checks of prescriptions written in DoseSpot (README "Allergy and
 * interaction checks"): DoseSpot screens inside its own window, but the chart's allergies and
 * medications are Tidewell's, so each prescription the sync brings in is checked against them.
 * Warnings are kept on the synced note and medication, and become one urgent task for the
 * prescriber. Loaded with import() by the sync, only when DoseSpot has a new prescription.
 */
import { createHash } from 'node:crypto';
import type { SafetyWarning } from '../../shared/chart/drug-safety.js';
import { maySignPrescription } from '../../shared/notes/rx.js';
import type { ExternalPrescription } from '../../shared/partners/partner-schema.js';
import { fullName } from '../../shared/patients/patient-derived.js';
import type { Patient } from '../../shared/patients/patient-schema.js';
import { TASK_TEXT_MAX } from '../../shared/tasks/task-schema.js';
import { DOSESPOT_PARTNER_ID } from '../lib/adapters/dosespot.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { drugSafetyWarnings } from '../lib/drug-safety/check.js';
import { ConflictError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { recordSafetyTask } from '../data/dosespot/dosespot-records.js';
import { createTask } from '../core/tasks/task-use-cases.js';
import { listUsers } from '../data/users/user-repository.js';

/** The warnings for giving the synced drug to the patient, read from the chart as it is now. */
export async function checkSyncedPrescription(practiceId: string, patientId: string, prescription: ExternalPrescription, now: Date): Promise<SafetyWarning[]> {
  const names = [prescription.medicationName, prescription.strength ?? ''].join(' ');
  return (await drugSafetyWarnings(practiceId, patientId, { label: prescription.medicationName, names }, now)).warnings;
}

/** The task's ident, the same for the same prescription: a retried or racing sync makes it once. */
export function safetyTaskIdent(practiceId: string, prescriptionId: string): string {
  const h = createHash('sha256').update(`dosespot-safety:${practiceId}:${prescriptionId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function safetyTaskText(patientName: string, drug: string, warnings: readonly SafetyWarning[]): string {
  const head = `Check the DoseSpot prescription of ${drug} for ${patientName}: ${warnings.length === 1 ? 'a safety warning' : `${warnings.length} safety warnings`}.`;
  return `${head} ${warnings.map((w) => w.message).join(' ')}`.slice(0, TASK_TEXT_MAX);
}

/**
 * The Tidewell prescriber behind DoseSpot's PrescriberId: the user an admin gave that DoseSpot user
 * id in settings, else the one the partner secret's map gives it.
 */
export async function prescriberOf(
  practiceId: string,
  doseSpotPrescriberId: string | undefined,
  doseSpotUsers: Readonly<Record<string, string>>,
): Promise<string | null> {
  if (!doseSpotPrescriberId) return null;
  const users = (await listUsers(practiceId)).filter((u) => u.userStatus !== 'deleted' && maySignPrescription(u));
  const bySettings = users.find((u) => u.doseSpotUserId === doseSpotPrescriberId);
  if (bySettings) return bySettings.userId;
  const byMap = users.find((u) => !u.doseSpotUserId && doseSpotUsers[u.userId] === doseSpotPrescriberId);
  return byMap?.userId ?? null;
}

export interface SafetyTaskInput {
  patient: Patient;
  prescription: ExternalPrescription;
  noteId: string;
  warnings: readonly SafetyWarning[];
  doseSpotUsers: Readonly<Record<string, string>>;
  /** Who gets the task when DoseSpot's prescriber is not a Tidewell user (the prescriber who ran the sync). */
  fallbackAssignee?: string;
}

/**
 * The urgent task for the prescriber, once per prescription: its ident is derived from DoseSpot's
 * prescription id, and the delivery item keeps `safetyTaskPending` until it exists, so a sync that
 * stopped between the note and the task makes the task on its next run. `actor` ran the sync (the
 * audit names it); `taskActor` is the sync itself, the task's author.
 */
export async function raiseSafetyTask(actor: AuthContext, taskActor: AuthContext, input: SafetyTaskInput, now: Date): Promise<string | null> {
  const { patient, prescription, noteId, warnings } = input;
  const assigned = (await prescriberOf(actor.practiceId, prescription.providerId, input.doseSpotUsers)) ?? input.fallbackAssignee;
  if (!assigned) {
    // Kept pending: the warnings are on the note and the medication, and a later on-demand sync assigns it.
    log.warn('dosespot safety: no Tidewell prescriber for the prescription, task left for the next sync');
    return null;
  }
  const ident = safetyTaskIdent(actor.practiceId, prescription.id);
  try {
    await createTask(
      taskActor,
      {
        text: safetyTaskText(fullName(patient), prescription.medicationName, warnings),
        assigned,
        urgent: true,
        patientId: patient.id,
        noteDataLinks: [{ interactionIdent: noteId }],
      },
      now,
      ident,
    );
    await writeAudit(actor, {
      action: 'create',
      entity: 'DRUG_SAFETY_WARNING',
      entityId: noteId,
      patientId: patient.id,
      detail: `DoseSpot prescription ${prescription.medicationName}: ${warnings.map((w) => w.message).join(' ')} Task ${ident} for the prescriber.`,
    });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
  }
  await recordSafetyTask(actor.practiceId, DOSESPOT_PARTNER_ID, prescription.id, ident);
  return ident;
}
