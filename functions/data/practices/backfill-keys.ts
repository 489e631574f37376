import { backfillPatientAppointmentKeys, backfillProviderAppointmentKeys } from '../calendar/appointment-backfill.js';
import { backfillCallCounts, backfillCallListKeys, backfillCallPatientKeys } from '../calls/call-backfill.js';
import { backfillContactNumbers } from '../contacts/contact-backfill.js';
import { backfillFaxListKeys, backfillFaxNoteKeys } from '../faxes/fax-backfill.js';
import { backfillConversationKeys, backfillLastInbound } from '../messaging/conversation-backfill.js';
import { backfillChartNoteKeys } from '../notes/note-backfill.js';
import { backfillNotificationCounts, backfillNotificationPeopleKeys, backfillSmsPairKeys } from '../notifications/notification-backfill.js';
import { withTable, type TableScope } from '../../lib/table/scope.js';

export interface BackfillCounts {
  conversations: number;
  lastInbound: number;
  appointments: number;
  patientAppointments: number;
  notifications: number;
  notificationPeople: number;
  smsPairs: number;
  calls: number;
  callList: number;
  patientCalls: number;
  contacts: number;
  faxList: number;
  faxNotes: number;
  chartNotes: number;
}

// Kept out of every Lambda: the local runtime runs it at start and `practice deploy` (or
// `practice backfill`) against a deployed practice's table.
/**
 * Keys added after a practice's data was written: each backfill runs once per practice (it marks
 * itself done), so the reads that wait for its marker read by page from then on. `table` names
 * the practice's table and a client for it; without it, the process's own table.
 */
export async function backfillKeys(practiceId: string, table?: TableScope): Promise<BackfillCounts> {
  const all = async (): Promise<BackfillCounts> => ({
    conversations: await backfillConversationKeys(practiceId),
    lastInbound: await backfillLastInbound(practiceId),
    appointments: await backfillProviderAppointmentKeys(practiceId),
    patientAppointments: await backfillPatientAppointmentKeys(practiceId),
    notifications: await backfillNotificationCounts(practiceId),
    notificationPeople: await backfillNotificationPeopleKeys(practiceId),
    smsPairs: await backfillSmsPairKeys(practiceId),
    calls: await backfillCallCounts(practiceId),
    callList: await backfillCallListKeys(practiceId),
    patientCalls: await backfillCallPatientKeys(practiceId),
    contacts: await backfillContactNumbers(practiceId),
    faxList: await backfillFaxListKeys(practiceId),
    // After the fax list's: that one writes the counts item whole.
    faxNotes: await backfillFaxNoteKeys(practiceId),
    chartNotes: await backfillChartNoteKeys(practiceId),
  });
  return table ? withTable(table, all) : all();
}

/** The counts in words, e.g. for a log line; null when nothing was written. */
export function describeBackfill(c: BackfillCounts): string | null {
  if (!Object.values(c).some((n) => n > 0)) return null;
  return `${c.conversations} conversations, ${c.lastInbound} unread previews, ${c.appointments} appointments, ${c.patientAppointments} patients' appointments, ${c.notifications} unread notifications, ${c.notificationPeople} notifications under their assignee, ${c.smsPairs} texts' notifications under their numbers, ${c.calls} calls counted, ${c.callList} calls listed, ${c.patientCalls} calls under their patient, ${c.contacts} contacts' numbers, ${c.faxList} faxes listed, ${c.faxNotes} faxes read for their notes and ${c.chartNotes} notes under their patient's chart`;
}
