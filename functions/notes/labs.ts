/**
 * Lab orders and results (spec notes §2–§9 LAB): loaded with the first lab request, never on the
 * notes group's cold start. A LAB note orders its tests from Health Gorilla, and the results the
 * lab sends back (functions/notes/partner-deliveries.ts) become its data.
 */
import {
  HEALTH_GORILLA_PARTNER_ID,
  LAB_MESSAGES,
  LAB_PROVIDER_NAME,
  LAB_TESTS,
  LOCAL_LAB_PROVIDER_LABEL,
  numericLabValue,
  type LabNoteData,
  type LabOrderBody,
  type LabResultItem,
  type LabTrend,
} from '../../shared/labs/lab-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { can } from '../../shared/permissions/permissions.js';
import {
  FHIR_ID,
  HEALTH_GORILLA_CLIENT_SECRET_ID,
  HealthGorillaClient,
  healthGorillaConfigFromEnv,
  LabProviderError,
  parseDiagnosticReport,
} from '../lib/adapters/health-gorilla.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import type { HttpExchange } from '../lib/adapters/sms-carrier.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ConflictError, DependencyError, ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import { isConditionFailure } from '../lib/table/condition-failure.js';
import { createNotification, findLatestBySource, updateNotification } from '../data/notifications/notification-repository.js';
import { getPatient } from '../data/patients/patient-repository.js';
import { labResultsNotificationText, type LabReview } from '../../shared/labs/lab-review.js';
import { getLabReview, putLabReview } from '../data/labs/lab-reviews.js';
import { pendingReviewFor, scheduleEscalation } from './lab-reviews.js';
import { getUser } from '../data/users/user-repository.js';
import { storedDelivery, writeDeliveryWithNoteVersion } from '../data/notes/delivery-records.js';
import { labOrderNoteId, writeLabOrder } from '../data/labs/lab-orders.js';
import { auditNote, requirePatient } from '../core/notes/note-common.js';
import { listPatientNotesButTexts, requireNote } from '../data/notes/note-repository.js';

/** pk practiceId, sk DELIVERY#health-gorilla#<report id>#<version>: a report version already taken. */

let exchangeOverride: HttpExchange | undefined;
/** Tests reach the vendor through a recorded exchange instead of the network. */
export function setLabExchangeForTests(exchange: HttpExchange | undefined): void {
  exchangeOverride = exchange;
  cachedClient = undefined;
}

let cachedClient: HealthGorillaClient | undefined;
async function labClient(): Promise<HealthGorillaClient> {
  if (cachedClient) return cachedClient;
  const secret = process.env.HEALTH_GORILLA_URL ? await partnerSecretsFromEnv().secretOf(HEALTH_GORILLA_CLIENT_SECRET_ID) : null;
  const config = healthGorillaConfigFromEnv(secret);
  if (!config) throw new DependencyError(503, LAB_MESSAGES.notConfigured, 'LAB_NOT_CONFIGURED');
  cachedClient = new HealthGorillaClient(config, exchangeOverride);
  return cachedClient;
}

const labData = (note: Note) => note.data as LabNoteData & Record<string, unknown>;

function providerFailure(error: unknown): never {
  if (error instanceof LabProviderError) {
    if (error.kind === 'refused') throw new ValidationError(LAB_MESSAGES.providerRefused, { order: error.issues.join('; ') || LAB_MESSAGES.providerRefused });
    throw new DependencyError(503, LAB_MESSAGES.providerUnavailable, `LAB_${error.kind.toUpperCase()}`);
  }
  throw error;
}

/**
 * POST /v1/notes/{noteId}/lab-order: orders the chosen tests for the note's patient from the
 * ordering provider (the caller unless named). The provider's Health Gorilla Practitioner is looked
 * up by NPI; without one the order is refused with 'Missing lab provider resource id'.
 */
export async function placeLabOrder(auth: AuthContext, noteId: string, body: LabOrderBody, now = new Date()): Promise<Note> {
  if (!can({ role: auth.role, userId: auth.userId }, 'lab.order')) throw new ForbiddenError('Only providers and admins order labs.');
  const note = await requireNote(auth.practiceId, noteId);
  if (note.status === 'DELETED') throw new NotFoundError('Note not found');
  if (note.noteType !== 'LAB') throw new ValidationError(LAB_MESSAGES.notLab);
  if (labData(note).hgId) throw new ConflictError(LAB_MESSAGES.alreadyOrdered);
  if (labData(note).source === 'import') throw new ConflictError(LAB_MESSAGES.imported);
  if (note.noteVersion !== body.noteVersion)
    throw new ConflictError('This note was changed by someone else. Reload it and try again.', { noteVersion: note.noteVersion });
  if (!note.patientId) throw new ValidationError(LAB_MESSAGES.noPatient, { patientId: LAB_MESSAGES.noPatient });
  const patient = await requirePatient(auth.practiceId, note.patientId);
  const providerId = body.orderingProviderId ?? auth.userId;
  const provider = await getUser(auth.practiceId, providerId);
  if (!provider || (provider.permissionGroup !== 'provider' && provider.permissionGroup !== 'admin'))
    throw new ValidationError(LAB_MESSAGES.missingProviderResourceId, { orderingProviderId: LAB_MESSAGES.missingProviderResourceId });
  const client = await labClient();
  let resourceId: string | null = null;
  try {
    resourceId = provider.npiNumber ? await client.practitionerIdByNpi(provider.npiNumber) : null;
  } catch (error) {
    providerFailure(error);
  }
  if (!resourceId) throw new ValidationError(LAB_MESSAGES.missingProviderResourceId, { orderingProviderId: LAB_MESSAGES.missingProviderResourceId });
  const tests = body.tests.map((code) => LAB_TESTS.find((t) => t.code === code)!);
  let placed;
  try {
    placed = await client.placeOrder({
      noteId,
      tests,
      patient: {
        id: patient.id,
        firstName: patient.firstName,
        lastName: patient.lastName,
        dob: patient.dob ?? null,
        gender: patient.gender ?? null,
        phone: patient.primaryPhoneNumber ?? patient.phones?.[0]?.number ?? null,
        email: patient.email ?? null,
        address: patient.address
          ? { line: patient.address.line1, city: patient.address.city, state: patient.address.state, postalCode: patient.address.zip }
          : null,
      },
      provider: { resourceId, name: provider.name, npi: provider.npiNumber ?? '' },
      authoredOn: now.toISOString(),
    });
  } catch (error) {
    providerFailure(error);
  }
  const local = client.config.local === true;
  const data: LabNoteData = {
    ...labData(note),
    tests: body.tests,
    orderedFrom: local ? LOCAL_LAB_PROVIDER_LABEL : LAB_PROVIDER_NAME,
    labReferenceId: placed.requisition,
    actions: placed.actions.length ? placed.actions : tests.map((t) => ({ display: t.display })),
    hgId: placed.hgId,
    orderStatus: 'ordered',
    lastUpdated: now.toISOString(),
    // Health Gorilla bills the patient's account for a patient-billed order; the billing system's charge is not known yet.
    billedToCode: 'patient',
    billedToText: 'Patient',
    paymentStatus: 'UNKNOWN',
    payments: [],
    orderingProvider: { userId: provider.userId, name: provider.name, resourceId },
    ...(local ? { local: true } : {}),
  };
  // The order exists at the vendor now: the note and the order's lookup item are written together,
  // and the note keeps the order even if someone saved it meanwhile (only the lab fields change).
  const saved = await writeOrder(auth.practiceId, noteId, placed.hgId, data, now);
  await auditNote(auth, 'update', saved);
  return saved;
}

async function writeOrder(practiceId: string, noteId: string, hgId: string, data: LabNoteData, now: Date, attempt = 0): Promise<Note> {
  const current = await requireNote(practiceId, noteId);
  const next: Note = {
    ...current,
    status: current.status === 'DRAFT' || current.status === 'HIDDEN' ? 'SENT' : current.status,
    data: { ...current.data, ...data },
    noteVersion: current.noteVersion + 1,
    timestamp: now.toISOString(),
  };
  try {
    await writeLabOrder(practiceId, next, current.noteVersion, hgId, now.toISOString());
  } catch (error) {
    if (!isConditionFailure(error) || attempt >= 3) throw error;
    return writeOrder(practiceId, noteId, hgId, data, now, attempt + 1);
  }
  return next;
}

/** Who the lab's deliveries act as in the audit trail: it has no user record or token. */
function labActor(practiceId: string): AuthContext {
  return { practiceId, userId: `partner:${HEALTH_GORILLA_PARTNER_ID}`, email: '', name: LAB_PROVIDER_NAME, role: 'employee', groups: [] };
}

export interface LabDeliveryOutcome {
  noteId: string;
  replayed: boolean;
}

/**
 * A Subscription notification, its header token already checked: only the report's id is taken
 * from the body. The report is read back from Health Gorilla with the practice's OAuth token and
 * that copy applied, so whoever learns the header token can neither forge a report nor change a
 * value; an id Health Gorilla does not know is refused (404) and nothing is written.
 */
export async function applyLabDelivery(practiceId: string, posted: unknown, now = new Date()): Promise<LabDeliveryOutcome> {
  const body = posted as { resourceType?: unknown; id?: unknown } | null;
  if (!body || body.resourceType !== 'DiagnosticReport' || typeof body.id !== 'string' || !FHIR_ID.test(body.id))
    throw new ValidationError(LAB_MESSAGES.notADeliveredReport);
  let vendorCopy: Record<string, unknown> | null;
  try {
    vendorCopy = await (await labClient()).reportById(body.id);
  } catch (error) {
    providerFailure(error);
  }
  if (!vendorCopy) throw new NotFoundError(LAB_MESSAGES.unknownToVendor);
  return applyLabReport(practiceId, vendorCopy, now);
}

/**
 * A DiagnosticReport from Health Gorilla (read back after its Subscription notification, or a poll) becomes the
 * LAB note's result data; its lines replace those of an earlier version of the same report. The
 * delivery item and the note's next version are one transaction, so the same report version
 * delivered again changes nothing and notifies no one again.
 */
export async function applyLabReport(practiceId: string, resource: unknown, now = new Date()): Promise<LabDeliveryOutcome> {
  const report = parseDiagnosticReport(resource);
  if (!report) throw new ValidationError(LAB_MESSAGES.notADeliveredReport);
  const noteId = await labOrderNoteId(practiceId, report.hgId);
  if (noteId === null) throw new NotFoundError('No lab order for this report');
  const deliveryId = `${report.reportId}#${report.version}`;
  if (await storedDelivery(practiceId, HEALTH_GORILLA_PARTNER_ID, deliveryId)) return { noteId, replayed: true };
  const at = now.toISOString();
  for (let attempt = 0; ; attempt++) {
    const note = await requireNote(practiceId, noteId);
    const data = labData(note);
    const previousReview = await getLabReview(practiceId, noteId);
    const results: LabResultItem[] = [...(data.results ?? []).filter((r) => r.reportId !== report.reportId), ...report.items];
    const reports = new Set(results.map((r) => r.reportId));
    const allIn = (data.tests ?? []).length > 0 && reports.size >= (data.tests ?? []).length;
    const next: Note = {
      ...note,
      // SENT while the order waits at the lab; DELIVERED once results are in (the result table lists these).
      status: note.status === 'SENT' ? 'DELIVERED' : note.status,
      data: {
        ...note.data,
        results: results as never,
        reportId: report.reportId,
        orderStatus: allIn && report.status === 'final' ? 'final' : 'partial',
        lastUpdated: at,
        ...(report.collectedAt ? { collectedAt: report.collectedAt } : {}),
      },
      noteVersion: note.noteVersion + 1,
      timestamp: at,
    };
    const patient = note.patientId ? await getPatient(practiceId, note.patientId) : null;
    const patientName = patient ? `${patient.firstName} ${patient.lastName}`.trim() : 'a patient';
    // The result waits on its ordering provider's list (Results to review) from the same write.
    const review = pendingReviewFor(next, patientName, previousReview, at);
    // Scheduled before the write: a failed schedule fails the delivery, which the lab sends again; a
    // schedule whose write then failed finds nothing pending and does nothing.
    if (review.severity === 'critical' && !review.escalatedAt) await scheduleEscalation(practiceId, review, now);
    const write = await writeDeliveryWithNoteVersion(practiceId, HEALTH_GORILLA_PARTNER_ID, deliveryId, next, note.noteVersion, at, [
      putLabReview(practiceId, review, previousReview),
    ]);
    if (!write.written) {
      if (write.raced) return { noteId, replayed: true };
      if (attempt >= 3) throw new ConflictError('The note changed while the results were written; send them again.');
      continue;
    }
    const actor = labActor(practiceId);
    await writeAudit(actor, { action: 'update', entity: 'NOTE', entityId: noteId, ...(note.patientId ? { patientId: note.patientId } : {}) });
    await notifyOrderingProvider(actor, next, review);
    return { noteId, replayed: false };
  }
}

/** One LAB_RESULTS notification per lab note, UNREAD for its ordering provider; a later report marks it UNREAD again. */
async function notifyOrderingProvider(actor: AuthContext, note: Note, review: LabReview): Promise<void> {
  const assigned = review.orderingProviderId;
  // The toast and the list name whose results and which tests, so nobody opens the wrong chart.
  const text = labResultsNotificationText(review.patientName, review.tests, review.flags);
  const changes = { notificationStatus: 'UNREAD' as const, text, data: { noteId: note.noteId, patientId: note.patientId } };
  // Two reports of one order can arrive at once: the id is the note's, so only one create wins and
  // the other report updates what it made; an update that loses its race reads again.
  for (let attempt = 1; ; attempt++) {
    try {
      const latest = await findLatestBySource(actor.practiceId, 'LAB_RESULTS', note.noteId);
      // A deleted one of this note's own id comes back UNREAD: its id cannot be made again.
      const existing = latest.find((n) => n.notificationStatus !== 'DELETED') ?? latest.find((n) => n.notificationId === labResultsNotificationId(note.noteId));
      if (existing) {
        await updateNotification(actor.practiceId, existing.notificationId, changes, actor);
        return;
      }
      await createNotification(
        actor.practiceId,
        {
          notificationId: labResultsNotificationId(note.noteId),
          notificationType: 'LAB_RESULTS',
          sourceId: note.noteId,
          relatedTo: note.noteId,
          assigned,
          patientId: note.patientId,
          ...changes,
        },
        actor,
      );
      return;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 3) throw error;
    }
  }
}

/** One per lab note, so concurrent reports of one order cannot make two. */
export const labResultsNotificationId = (noteId: string) => `labresults_${noteId}`;

/**
 * GET /v2/notes/labs/link/{patientId}/{code}?timezoneOffset: one analyte's values over the
 * patient's lab notes, oldest first (numeric values only), with the day each was issued in the
 * caller's time zone.
 */
export async function labTrend(auth: AuthContext, patientId: string, code: string, timezoneOffset = 0): Promise<LabTrend> {
  await requirePatient(auth.practiceId, patientId);
  const notes = (await listPatientNotesButTexts(auth.practiceId, patientId, { oldestFirst: true })).filter(
    (n) => n.noteType === 'LAB' && n.status !== 'DELETED',
  );
  let text = '';
  const points: LabTrend['points'] = [];
  for (const note of notes) {
    for (const item of labData(note).results ?? []) {
      if (item.code !== code) continue;
      text ||= item.text;
      const value = numericLabValue(item);
      if (value === null) continue;
      const issued = item.issued ?? note.eventTimestamp;
      const local = new Date(Date.parse(issued) - timezoneOffset * 60_000);
      points.push({
        noteId: note.noteId,
        issued,
        day: local.toISOString().slice(0, 10),
        value,
        ...(item.valueQuantity?.unit ? { unit: item.valueQuantity.unit } : {}),
        ...(item.interpretation ? { interpretation: item.interpretation } : {}),
        ...(item.ranges ? { ranges: item.ranges } : {}),
      });
    }
  }
  points.sort((a, b) => a.issued.localeCompare(b.issued));
  await writeAudit(auth, { action: 'read', entity: 'NOTE', patientId, count: points.length });
  return { code, text, points };
}
