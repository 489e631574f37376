import { randomUUID } from 'node:crypto';
import type { SafetyWarning } from '../../shared/chart/drug-safety.js';
import { maySignPrescription, RX_MESSAGES } from '../../shared/notes/rx.js';
import { DOSESPOT_MESSAGES, type DoseSpotSyncResult, type DoseSpotSyncTasks, type DoseSpotSyncTasksQuery } from '../../shared/partners/dosespot.js';
import { ExternalPrescription } from '../../shared/partners/partner-schema.js';
import { chartItemKey, CHART_SECTION_KEYS } from '../data/chart/chart-repository.js';
import type { Patient } from '../../shared/patients/patient-schema.js';
import { DOSESPOT_PARTNER_ID, listPrescriptions, toExternalPrescription, type DoseSpotPrescription } from '../lib/adapters/dosespot.js';
import { writeAudit, writeAuditForPatients } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { DependencyError, ForbiddenError, HttpError, NotFoundError, ValidationError } from '../lib/errors.js';
import { externalNote, storedDelivery, writeDeliveredNote } from '../data/notes/delivery-records.js';
import { getPatient, PATIENT_NOT_FOUND } from '../data/patients/patient-repository.js';
import { log } from '../lib/log.js';
import { listBackgroundTasks, startBackgroundTask, type RunningTask } from '../data/background-tasks/background-tasks.js';
import { getUser } from '../data/users/user-repository.js';
import { doseSpotPatientIdFor, listDoseSpotLinks, markDoseSpotSynced } from './dosespot-patient-link.js';
import { doseSpotApiAuth, doseSpotConfig, doseSpotUserOf } from './dosespot-sso.js';
import { dayIn, practiceTimeZone } from '../data/calendar/practice-day.js';

/**
 * The chart medication a DoseSpot prescription adds (spec chart-data §3 medication), linked to its
 * note and carrying DoseSpot's id: written with the note, so the medications card shows what was
 * prescribed in DoseSpot exactly once.
 */
export function medicationFromDoseSpot(
  practiceId: string,
  patientId: string,
  noteId: string,
  p: ExternalPrescription,
  written: string,
  at: string,
  timeZone = 'UTC',
) {
  // The day it was written at the practice (an evening prescription in Chicago is already tomorrow in UTC).
  const start = dayIn(new Date(written), timeZone);
  const end = p.daysOfTreatment ? new Date(Date.parse(`${start}T00:00:00Z`) + p.daysOfTreatment * 86_400_000).toISOString().slice(0, 10) : undefined;
  const ident = randomUUID();
  const medication = {
    ident,
    patientId,
    productName: p.medicationName,
    strength: p.strength,
    dosageForm: p.form,
    sigText: p.instructions,
    status: 'Active',
    start,
    end,
    rxId: noteId,
    noteId,
    doseSpotRxId: p.id,
    code: p.ndcNumber ? { type: 'NDC', value: p.ndcNumber } : undefined,
    daysSupply: p.daysOfTreatment,
    refills: p.numberOfRefills,
    quantity: p.quantityPrescribed,
    routeOfAdministration: p.routeOfAdministration,
    transmissionMethod: 'DoseSpot',
    daw: p.noSubstitutions ? 1 : 0,
    pinned: false,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
  return {
    ...Object.fromEntries(Object.entries(medication).filter(([, v]) => v !== undefined)),
    ident,
    practiceId,
    sk: chartItemKey(patientId, 'medications', ident),
    entityType: `CHART_${CHART_SECTION_KEYS.medications}`,
  };
}

/** The unattended sync as the audit trail's actor: it has no user record or token. */
export function doseSpotSyncActor(practiceId: string): AuthContext {
  return { practiceId, userId: DOSESPOT_SYNC_ACTOR_ID, email: '', name: 'DoseSpot sync', role: 'employee', groups: [] };
}

/**
 * The patient's DoseSpot prescriptions become RX_DOSESPOT notes (read-only, spec notes §3
 * external prescription fields) and active chart medications, one per DoseSpot prescription
 * however often, and however many at once, it runs: the delivery record is written in the same
 * transaction as the note and the medication, conditionally.
 */
async function writeSyncedPrescriptions(
  actor: AuthContext,
  patient: Patient,
  prescriptions: DoseSpotPrescription[],
  now: Date,
  safetyContext: SafetyContext,
): Promise<string[]> {
  const created: string[] = [];
  let timeZone: string | undefined;
  // The checks load with the first new prescription (they stay out of the practice bundle's cold start).
  let safety: typeof import('./dosespot-safety.js') | undefined;
  for (const raw of prescriptions) {
    const parsed = ExternalPrescription.safeParse(toExternalPrescription(raw));
    if (!parsed.success) continue;
    const prescription = parsed.data;
    const stored = await storedDelivery(actor.practiceId, DOSESPOT_PARTNER_ID, prescription.id);
    if (stored) {
      // A run that stopped between the note and its safety task: the task is made now.
      if (stored.safetyTaskPending === true) {
        safety ??= await import('./dosespot-safety.js');
        const warnings = (stored.safetyWarnings as SafetyWarning[] | undefined) ?? [];
        await safety.raiseSafetyTask(
          actor,
          doseSpotSyncActor(actor.practiceId),
          { patient, prescription, noteId: String(stored.noteId), warnings, ...safetyContext },
          now,
        );
      }
      continue;
    }
    safety ??= await import('./dosespot-safety.js');
    const warnings = await safety.checkSyncedPrescription(actor.practiceId, patient.id, prescription, now);
    const at = now.toISOString();
    const written =
      prescription.datePrescribed && !Number.isNaN(Date.parse(prescription.datePrescribed)) ? new Date(prescription.datePrescribed).toISOString() : at;
    const note = externalNote(
      {
        noteType: 'RX_DOSESPOT',
        // Written and signed by the prescriber in DoseSpot: shown on the timeline like a signed note.
        status: 'SIGNED',
        signed: written,
        eventTimestamp: written,
        patientId: patient.id,
        data: { source: DOSESPOT_PARTNER_ID, prescription, deliveryId: prescription.id },
        partnerId: DOSESPOT_PARTNER_ID,
        authorName: 'DoseSpot',
      },
      at,
    );
    timeZone ??= await practiceTimeZone(actor.practiceId);
    const medication = medicationFromDoseSpot(actor.practiceId, patient.id, note.noteId, prescription, written, at, timeZone);
    // Deleting the note removes this medication: the note names it, as an in-house prescription does.
    note.data = { ...note.data, medicationId: medication.ident, ...(warnings.length ? { safetyWarnings: warnings } : {}) };
    const withWarnings = warnings.length ? { ...medication, safetyWarnings: warnings } : medication;
    const pending = warnings.length ? { safetyTaskPending: true, safetyWarnings: warnings } : {};
    // A sync running at the same moment may have written this prescription first.
    if ((await writeDeliveredNote(actor.practiceId, DOSESPOT_PARTNER_ID, prescription.id, note, at, [withWarnings], pending)).replayed) continue;
    await writeAudit(actor, { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
    await writeAudit(actor, { action: 'create', entity: 'medication', entityId: medication.ident, patientId: patient.id });
    if (warnings.length)
      await safety.raiseSafetyTask(actor, doseSpotSyncActor(actor.practiceId), { patient, prescription, noteId: note.noteId, warnings, ...safetyContext }, now);
    created.push(note.noteId);
  }
  return created;
}

/** Who a safety task goes to: DoseSpot's prescriber by the clinic's user map, else the prescriber running the sync. */
interface SafetyContext {
  doseSpotUsers: Readonly<Record<string, string>>;
  fallbackAssignee?: string;
}

/** The sync actor's user id, as the audit trail and the background task record name it. */
export const DOSESPOT_SYNC_ACTOR_ID = 'scheduled:dosespot-sync';
/** A failure whose own text is not for the reader (an unexpected error may carry anything). */
export const DOSESPOT_SYNC_STOPPED = 'The sync stopped on an unexpected error.';

/** Why a run failed, in words a reader of the record may see: a refusal's own text, never an unexpected error's. */
function failureReasonOf(err: unknown): string {
  // The scheduled run's own account of what went wrong, beside the user-facing text it throws with.
  if (err instanceof DependencyError && typeof err.details?.reason === 'string') return err.details.reason;
  if (err instanceof HttpError && (err.statusCode < 500 || err instanceof DependencyError)) return err.message;
  return DOSESPOT_SYNC_STOPPED;
}

/** Records the run's failure, then lets the failure go on to the caller (or to Scheduler's retry). */
async function failed(task: RunningTask, err: unknown): Promise<never> {
  try {
    await task.fail(failureReasonOf(err));
  } catch (recordErr) {
    log.warn('dosespot sync: its failure could not be recorded', { error: recordErr instanceof Error ? recordErr.name : 'unknown' });
  }
  throw err;
}

/** syncPatientRx on demand: one patient, as the signed-in prescriber's DoseSpot user. */
export async function syncPatientRx(auth: AuthContext, patientId: string, now = new Date()): Promise<DoseSpotSyncResult> {
  const config = await doseSpotConfig();
  if (!config) throw new DependencyError(503, DOSESPOT_MESSAGES.failed, 'DOSESPOT_NOT_CONFIGURED');
  const doseSpotUserId = await doseSpotUserOf(auth, config);
  const patient = await getPatient(auth.practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  // A run starts once the caller may run it on this patient: a refused request is not a run.
  const task = await startBackgroundTask(auth.practiceId, { taskType: 'syncPatientRx', trigger: 'on-demand', requestedBy: auth.userId, patientId }, now);
  let created: string[];
  try {
    const apiAuth = doseSpotApiAuth(config, doseSpotUserId);
    let prescriptions;
    try {
      const doseSpotPatientId = await doseSpotPatientIdFor(auth.practiceId, config.baseUrl, apiAuth, patient);
      prescriptions = await listPrescriptions(config.baseUrl, apiAuth, doseSpotPatientId);
    } catch (err) {
      if (err instanceof ValidationError) throw err;
      throw new DependencyError(502, DOSESPOT_MESSAGES.failed, 'DOSESPOT_SYNC_FAILED', { reason: DOSESPOT_SYNC_REFUSED });
    }
    await writeAudit(auth, { action: 'read', entity: 'dosespot-prescriptions', patientId });
    created = await writeSyncedPrescriptions(auth, patient, prescriptions, now, { doseSpotUsers: config.users, fallbackAssignee: auth.userId });
  } catch (err) {
    return failed(task, err);
  }
  await task.complete({ patients: 1, created: created.length, failed: 0, deferred: 0, noteIds: created });
  return { created: created.length, noteIds: created, taskId: task.task.taskId };
}

export interface ScheduledSyncOutcome {
  /** Why nothing ran, when the clinic is not set up for the unattended sync. */
  skipped?: 'not-configured' | 'no-clinic-user';
  patients: number;
  created: number;
  failed: number;
  /** Patients left for the next run because this one reached its time budget. */
  deferred: number;
  /** Its background task record; none when DoseSpot is not set up at all. */
  taskId?: string;
}

/** Stops starting patients this long into a run, well inside the schedule target's 60 s timeout. */
const RUN_BUDGET_MS = 40_000;

/**
 * The scheduled syncPatientRx (EventBridge Scheduler, functions/workers/schedule-target/recurring.ts):
 * every patient already sent to DoseSpot, least recently synced first, as the clinic-level DoseSpot
 * user of the partner secret (`clinicUserId`). Each patient's sync is stamped on its DoseSpot link,
 * so a run cut short by its budget resumes with the patients it did not reach. One patient DoseSpot
 * refuses does not stop the others; a run where every patient failed throws, so Scheduler retries
 * and finally dead-letters it (the scheduler alarm).
 */
export async function syncLinkedPatientsRx(practiceId: string, now = () => new Date()): Promise<ScheduledSyncOutcome> {
  const outcome: ScheduledSyncOutcome = { patients: 0, created: 0, failed: 0, deferred: 0 };
  const config = await doseSpotConfig();
  // A practice that does not use DoseSpot gets no hourly record of nothing.
  if (!config?.subscriptionKey) return { ...outcome, skipped: 'not-configured' };
  const task = await startBackgroundTask(
    practiceId,
    { taskType: 'syncPatientRx', trigger: 'scheduled', requestedBy: DOSESPOT_SYNC_ACTOR_ID, patientId: null },
    now(),
  );
  outcome.taskId = task.task.taskId;
  if (!config.clinicUserId) {
    await task.fail(DOSESPOT_SYNC_NO_CLINIC_USER, now());
    return { ...outcome, skipped: 'no-clinic-user' };
  }
  const noteIds: string[] = [];
  try {
    const apiAuth = doseSpotApiAuth(config, config.clinicUserId);
    const actor = doseSpotSyncActor(practiceId);
    const links = (await listDoseSpotLinks(practiceId)).sort((a, b) => (a.lastSyncedAt ?? '').localeCompare(b.lastSyncedAt ?? ''));
    const started = now().getTime();
    for (const [i, link] of links.entries()) {
      if (now().getTime() - started > RUN_BUDGET_MS) {
        outcome.deferred = links.length - i;
        break;
      }
      outcome.patients++;
      try {
        const patient = await getPatient(practiceId, link.patientId);
        if (patient) {
          const prescriptions = await listPrescriptions(config.baseUrl, apiAuth, link.doseSpotPatientId);
          await writeAudit(actor, { action: 'read', entity: 'dosespot-prescriptions', patientId: patient.id });
          const created = await writeSyncedPrescriptions(actor, patient, prescriptions, now(), { doseSpotUsers: config.users });
          outcome.created += created.length;
          noteIds.push(...created);
        }
        await markDoseSpotSynced(practiceId, link.patientId, now());
      } catch (err) {
        outcome.failed++;
        // Counts and the error's kind only: a DoseSpot refusal text may name the patient.
        log.warn('dosespot scheduled sync: a patient failed', { error: err instanceof Error ? err.name : 'unknown' });
      }
    }
    if (outcome.patients > 0 && outcome.failed === outcome.patients) {
      throw new DependencyError(502, DOSESPOT_MESSAGES.failed, 'DOSESPOT_SYNC_FAILED', { reason: dosespotRefusedAll(outcome.patients) });
    }
  } catch (err) {
    return failed(task, err);
  }
  await task.complete({ patients: outcome.patients, created: outcome.created, failed: outcome.failed, deferred: outcome.deferred, noteIds }, now());
  return outcome;
}

/** FAILED texts: what a prescriber or an operator looks into. */
export const DOSESPOT_SYNC_REFUSED = "DoseSpot refused the patient or did not answer with the patient's prescriptions.";
export const DOSESPOT_SYNC_NO_CLINIC_USER = 'The DoseSpot settings have no clinic-level user (clinicUserId), so the hourly sync cannot sign in to DoseSpot.';
export const dosespotRefusedAll = (n: number) => `DoseSpot refused every patient of this run (${n}).`;

/**
 * GET /v1/practices/users/me/dosespot-sync: the syncPatientRx runs, newest first, for admins and
 * prescribers (who run it on demand). An on-demand run names its patient, so each read is audited.
 */
export async function listDoseSpotSyncTasks(auth: AuthContext, query: DoseSpotSyncTasksQuery): Promise<DoseSpotSyncTasks> {
  if (auth.role !== 'admin') {
    const user = await getUser(auth.practiceId, auth.userId);
    if (!user || user.userStatus === 'deleted' || !maySignPrescription(user)) throw new ForbiddenError(RX_MESSAGES.cannotPrescribe);
  }
  const tasks = await listBackgroundTasks(auth.practiceId, 'syncPatientRx', { statuses: query.status, limit: query.limit });
  await writeAuditForPatients(
    auth,
    { action: 'list', entity: 'background-task', count: tasks.length },
    tasks.map((t) => t.patientId),
  );
  return { tasks };
}
