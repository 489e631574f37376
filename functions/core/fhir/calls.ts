import { UNANSWERED_CALL_STATUSES, type PhoneCall, type VendorCallStatus } from '../../../shared/calls/call-schema.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { noteDocumentId } from './documents.js';
import { clean, fhirInstant, refTo, sourceIdentifier, stableUuid, SYSTEMS, type FhirResource, type Reference } from './fhir-core.js';
import type { ChartMapper, ChartSource, MapContext } from './model.js';

/** How long a call lasted and how long its voicemail is (seconds): R4's Communication has no element for either. */
export const CALL_DURATION_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/call-duration';
export const VOICEMAIL_DURATION_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/voicemail-duration';
const seconds = (url: string, value: number | null | undefined) =>
  typeof value !== 'number' || !Number.isFinite(value) ? [] : [{ url, valueDuration: { value, unit: 's', system: 'http://unitsofmeasure.org', code: 's' } }];

type CallNote = { text?: string; missed?: boolean };
type CallStatus = 'completed' | 'not-done' | 'in-progress';

/**
 * A call brought in from another record (FHIR import) has no call record in this practice: its
 * PHONE_CALL note keeps what the call was, so the call exports again as the call it came in as.
 */
export interface ImportedCall {
  /** When the call was: its note is dated as the note it came with was. */
  at: string;
  direction: PhoneCall['direction'];
  status: CallStatus;
  outcome: string;
  /** The other party's number, and the number of the practice it was with. */
  other: string | null;
  practiceNumber: string | null;
  durationSeconds: number | null;
  voicemailSeconds: number | null;
  /** The user of the other practice who placed or took it, by name. */
  userName: string | null;
}

/** What became of a call, as the call record knows it: answered, a voicemail, missed, not answered, or still going on. */
export function callOutcome(call: PhoneCall, note?: CallNote): { status: CallStatus; outcome: string } {
  if (call.voicemailKey) return { status: 'completed', outcome: 'Voicemail' };
  const unanswered = UNANSWERED_CALL_STATUSES.includes(call.callStatus as VendorCallStatus);
  if (call.direction === 'INBOUND' && (unanswered || call.missed || note?.missed)) return { status: 'not-done', outcome: 'Missed call' };
  if (unanswered) return { status: 'not-done', outcome: call.callStatus === 'busy' ? 'Busy' : call.callStatus === 'failed' ? 'Failed' : 'Not answered' };
  if (call.callStatus === 'completed') return { status: 'completed', outcome: 'Answered' };
  return { status: 'in-progress', outcome: 'In progress' };
}

interface CallFacts extends ImportedCall {
  ident: string;
  note: Note | undefined;
  voicemailKey: string | null;
}

function communication(src: ChartSource, ctx: MapContext, c: CallFacts, user: Reference | undefined): FhirResource {
  const inbound = c.direction === 'INBOUND';
  const at = fhirInstant(c.at);
  const said = (c.note?.data as CallNote | undefined)?.text;
  return clean({
    resourceType: 'Communication',
    id: stableUuid('Communication', src.practiceId, 'call', c.ident),
    extension: [...seconds(CALL_DURATION_EXTENSION, c.durationSeconds), ...seconds(VOICEMAIL_DURATION_EXTENSION, c.voicemailSeconds)],
    identifier: [sourceIdentifier(src.practiceId, 'call', c.ident)],
    status: c.status,
    statusReason: c.status === 'not-done' ? { text: c.outcome } : undefined,
    category: [
      {
        coding: [{ system: SYSTEMS.communicationCategory, code: 'notification', display: 'Notification' }],
        text: `${inbound ? 'Call received' : 'Call placed'}: ${c.outcome}`,
      },
    ],
    medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'PHONE', display: 'telephone' }] }],
    subject: ctx.patientRef,
    about: c.note ? [refTo({ id: noteDocumentId(src.practiceId, c.note.noteId) })] : undefined,
    sent: inbound ? undefined : at,
    received: inbound ? at : undefined,
    sender: inbound ? undefined : user,
    recipient: inbound && user ? [user] : [],
    note: [
      ...(c.other ? [{ text: `${inbound ? 'From' : 'To'} phone ${c.other}` }] : []),
      ...(c.practiceNumber ? [{ text: `${inbound ? 'To' : 'From'} practice number ${c.practiceNumber}` }] : []),
    ],
    payload: [
      ...(said ? [{ contentString: said }] : []),
      ...(c.voicemailKey ? [{ contentAttachment: { contentType: 'audio/wav', title: 'voicemail.wav', url: src.filePaths.get(c.voicemailKey) } }] : []),
    ],
  });
}

/**
 * Phone calls with the patient: one Communication each (medium PHONE). The practice's user the call
 * was placed by or assigned to is its practice side; the other party is the number it was with,
 * the patient its subject; a voicemail is the payload, pointing at the binary the export carries.
 * The call's note in the chart is what the Communication is `about`.
 */
export const phoneCalls: ChartMapper = {
  kind: 'call',
  map: (src, ctx) => {
    const recorded = src.calls.map((call) => {
      const inbound = call.direction === 'INBOUND';
      const note = call.noteId ? src.notes.find((n) => n.noteId === call.noteId) : undefined;
      const userId = inbound ? call.assigned : (call.placedBy ?? call.assigned);
      const user = userId && src.userNames.has(userId) ? ctx.practitioner({ userId, name: src.userNames.get(userId) }) : undefined;
      const facts: CallFacts = {
        ...callOutcome(call, note?.data as CallNote | undefined),
        ident: call.ident,
        direction: call.direction,
        at: call.createdAt,
        other: (inbound ? call.caller : call.recipient) || null,
        practiceNumber: (inbound ? call.recipient : call.caller) || null,
        durationSeconds: call.durationSeconds,
        voicemailSeconds: call.voicemailSeconds,
        voicemailKey: call.voicemailKey,
        userName: null,
        note,
      };
      return communication(src, ctx, facts, user);
    });
    const withRecord = new Set(src.calls.map((c) => c.noteId));
    const imported = src.notes
      .filter((n) => n.noteType === 'PHONE_CALL' && n.data.importedCall && !withRecord.has(n.noteId))
      .map((note) => {
        const c = note.data.importedCall as ImportedCall;
        const user = c.userName ? ctx.practitioner({ name: c.userName }) : undefined;
        const voicemailKey = note.files.find((f) => (f.contentType ?? '').startsWith('audio/'))?.key ?? null;
        return communication(src, ctx, { ...c, ident: note.noteId, at: c.at || note.eventTimestamp, voicemailKey, note }, user);
      });
    return [...recorded, ...imported];
  },
};
