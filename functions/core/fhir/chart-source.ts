import type { Note } from '../../../shared/notes/note-schema.js';
import type { SaleLine } from '../../../shared/sales/sales-schema.js';
import type { InventoryItem } from '../../../shared/sales/sales-schema.js';
import { NotFoundError } from '../../lib/errors.js';
import { queryAll } from '../../lib/table/query-all.js';
import { getInventoryItem } from '../../data/inventory/inventory-repository.js';
import { listPatientNotes } from '../../data/notes/note-repository.js';
import { getPatient } from '../../data/patients/patient-repository.js';
import { getPracticeCalendarSettings, listAppointmentTypes, listBookingLocations, listPatientAppointments } from '../../data/calendar/calendar-repository.js';
import { listPatientCalls } from '../../data/calls/call-repository.js';
import { listUsers } from '../../data/users/user-repository.js';
import { DEFAULT_TIME_ZONE } from '../../../shared/calendar/calendar-schema.js';
import { CHART_SECTION_KEYS, parseChartItem, PATIENT_NOT_FOUND, type ChartSectionName, type StoredItem } from '../../data/chart/chart-repository.js';
import type { ChartSource, PracticeDirectory } from './model.js';

const SECTION_BY_KEY = new Map(Object.entries(CHART_SECTION_KEYS).map(([name, key]) => [key, name as ChartSectionName]));
const SKIPPED_NOTE_STATUSES = new Set<Note['status']>(['DELETED', 'TEMPLATE']);

/** A file's path inside the export zip: its position keeps two files of the same name apart. */
export function zipPathOf(index: number, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._ -]+/g, '_').slice(-120) || 'file';
  return `files/${String(index + 1).padStart(4, '0')}-${safe}`;
}

type ChartSections = { [S in ChartSectionName]: StoredItem<S>[] };

/** Every chart item of a patient in one Query (PATIENT#<id>#…), each parsed as its section's item. */
async function chartSections(practiceId: string, patientId: string): Promise<ChartSections> {
  const rows = await queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': `PATIENT#${patientId}#` },
  });
  const out: ChartSections = {
    allergies: [],
    diagnoses: [],
    medications: [],
    freeformMedications: [],
    vaccines: [],
    vaccineGroups: [],
    surgeries: [],
    familyHistory: [],
    socialHistory: [],
    general: [],
    generalGroups: [],
  };
  const add = <S extends ChartSectionName>(section: S, row: Record<string, unknown>) => out[section].push(parseChartItem(section, row));
  for (const row of rows) {
    const sectionKey = String(row.sk).slice(`PATIENT#${patientId}#`.length).split('#')[0]!;
    const section = SECTION_BY_KEY.get(sectionKey as (typeof CHART_SECTION_KEYS)[ChartSectionName]);
    if (section) add(section, row);
  }
  return out;
}

/** The practice's users, appointment types and booking locations: what notes and appointments name by id. */
export async function loadPracticeDirectory(practiceId: string): Promise<PracticeDirectory> {
  const [users, types, locations, settings] = await Promise.all([
    listUsers(practiceId),
    listAppointmentTypes(practiceId),
    listBookingLocations(practiceId),
    getPracticeCalendarSettings(practiceId),
  ]);
  return {
    users: new Map(
      users.map((u) => [u.userId, { name: u.name, firstName: u.firstName, lastName: u.lastName, npi: u.npiNumber || null, email: u.emailAddress }]),
    ),
    appointmentTypes: new Map(types.map((t) => [t.ident, t.name])),
    locations: new Map(locations.map((l) => [l.ident, l])),
    timeZone: settings?.timeZone ?? DEFAULT_TIME_ZONE,
  };
}

/**
 * Reads everything the export maps for one patient: the patient's own items, appointment copies and
 * calls, never the practice's. The practice export passes the directory, read once for a batch.
 */
export async function loadChartSource(practiceId: string, patientId: string, preloaded: { directory?: PracticeDirectory } = {}): Promise<ChartSource> {
  const patient = await getPatient(practiceId, patientId);
  if (!patient) throw new NotFoundError(PATIENT_NOT_FOUND);
  const [sections, allNotes, appointments, patientCalls, directory] = await Promise.all([
    chartSections(practiceId, patientId),
    listPatientNotes(practiceId, patientId),
    listPatientAppointments(practiceId, patientId),
    listPatientCalls(practiceId, patientId),
    preloaded.directory ?? loadPracticeDirectory(practiceId),
  ]);
  const calls = patientCalls.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const userNames = new Map<string, string>();
  for (const userId of new Set(calls.flatMap((c) => [c.assigned, c.placedBy]).filter((u): u is string => !!u && !u.startsWith('partner:')))) {
    const user = directory.users.get(userId);
    if (user) userNames.set(userId, user.name || [user.firstName, user.lastName].filter(Boolean).join(' '));
  }
  const notes = allNotes.filter((n) => !SKIPPED_NOTE_STATUSES.has(n.status));
  const inventoryIds = new Set(
    notes.filter((n) => n.noteType === 'SALES').flatMap((n) => ((n.data.items ?? []) as SaleLine[]).filter((l) => l.kind === 'inventory').map((l) => l.refId)),
  );
  const inventory = new Map<string, InventoryItem>();
  for (const id of inventoryIds) {
    const item = await getInventoryItem(practiceId, id);
    if (item) inventory.set(id, item);
  }
  const filePaths = new Map<string, string>();
  for (const file of notes.flatMap((n) => n.files)) if (!filePaths.has(file.key)) filePaths.set(file.key, zipPathOf(filePaths.size, file.name));
  // A voicemail is its note's file when the caller's number named the patient; a call given its patient later has only the call's.
  for (const call of calls)
    if (call.voicemailKey && !filePaths.has(call.voicemailKey)) filePaths.set(call.voicemailKey, zipPathOf(filePaths.size, 'voicemail.wav'));
  const s = sections;
  return {
    practiceId,
    patient,
    allergies: s.allergies,
    diagnoses: s.diagnoses,
    medications: s.medications,
    freeformMedications: s.freeformMedications,
    vaccines: s.vaccines,
    surgeries: s.surgeries,
    familyHistory: s.familyHistory,
    socialHistory: s.socialHistory,
    general: s.general,
    appointments,
    directory,
    calls,
    userNames,
    notes,
    inventory,
    filePaths,
  };
}
