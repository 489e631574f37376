import { UNANSWERED_CALL_STATUSES, type PhoneCall, type VendorCallStatus } from '../../../shared/calls/call-schema.js';
import { noteDocumentId } from './documents.js';
import { clean, fhirInstant, refTo, sourceIdentifier, stableUuid, SYSTEMS, type Reference } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** How long a call lasted and how long its voicemail is (seconds): R4's Communication has no element for either. */
export const CALL_DURATION_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/call-duration';
export const VOICEMAIL_DURATION_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/voicemail-duration';
const seconds = (url: string, value: number | null) => (value === null || !Number.isFinite(value) ? [] : [{ url, valueDuration: { value, unit: 's', system: 'http://unitsofmeasure.org', code: 's' } }]);

type CallNote = { text?: string; missed?: boolean };

/** What became of a call, as the call record knows it: answered, a voicemail, missed, not answered, or still going on. */
export function callOutcome(call: PhoneCall, note?: CallNote): { status: 'completed' | 'not-done' | 'in-progress'; outcome: string } {
  if (call.voicemailKey) return { status: 'completed', outcome: 'Voicemail' };
  const unanswered = UNANSWERED_CALL_STATUSES.includes(call.callStatus as VendorCallStatus);
  if (call.direction === 'INBOUND' && (unanswered || note?.missed)) return { status: 'not-done', outcome: 'Missed call' };
  if (unanswered) return { status: 'not-done', outcome: call.callStatus === 'busy' ? 'Busy' : call.callStatus === 'failed' ? 'Failed' : 'Not answered' };
  if (call.callStatus === 'completed') return { status: 'completed', outcome: 'Answered' };
  return { status: 'in-progress', outcome: 'In progress' };
}

/**
 * Phone calls with the patient: one Communication each (medium PHONE). The practice's user the call
 * was placed by or assigned to is its practice side; the other party is the number it was with,
 * the patient its subject; a voicemail is the payload, pointing at the binary the export carries.
 * The call's note in the chart is what the Communication is `about`.
 */
export const phoneCalls: ChartMapper = {
  kind: 'call',
  map: (src, ctx) =>
    src.calls.map((call) => {
      const inbound = call.direction === 'INBOUND';
      const note = call.noteId ? src.notes.find((n) => n.noteId === call.noteId) : undefined;
      const userId = inbound ? call.assigned : (call.placedBy ?? call.assigned);
      const user: Reference | undefined = userId && src.userNames.has(userId) ? ctx.practitioner({ userId, name: src.userNames.get(userId) }) : undefined;
      const { status, outcome } = callOutcome(call, note?.data as CallNote | undefined);
      const other = inbound ? call.caller : call.recipient;
      const practiceNumber = inbound ? call.recipient : call.caller;
      const at = fhirInstant(call.createdAt);
      const voicemailPath = call.voicemailKey ? src.filePaths.get(call.voicemailKey) : undefined;
      const said = (note?.data as CallNote | undefined)?.text;
      return clean({
        resourceType: 'Communication',
        id: stableUuid('Communication', src.practiceId, 'call', call.ident),
        extension: [...seconds(CALL_DURATION_EXTENSION, call.durationSeconds), ...seconds(VOICEMAIL_DURATION_EXTENSION, call.voicemailSeconds)],
        identifier: [sourceIdentifier(src.practiceId, 'call', call.ident)],
        status,
        statusReason: status === 'not-done' ? { text: outcome } : undefined,
        category: [{ coding: [{ system: SYSTEMS.communicationCategory, code: 'notification', display: 'Notification' }], text: `${inbound ? 'Call received' : 'Call placed'}: ${outcome}` }],
        medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'PHONE', display: 'telephone' }] }],
        subject: ctx.patientRef,
        about: note ? [refTo({ id: noteDocumentId(src.practiceId, note.noteId) })] : undefined,
        sent: inbound ? undefined : at,
        received: inbound ? at : undefined,
        sender: inbound ? undefined : user,
        recipient: inbound && user ? [user] : [],
        note: [
          ...(other ? [{ text: `${inbound ? 'From' : 'To'} phone ${other}` }] : []),
          ...(practiceNumber ? [{ text: `${inbound ? 'To' : 'From'} practice number ${practiceNumber}` }] : []),
        ],
        payload: [
          ...(said ? [{ contentString: said }] : []),
          ...(call.voicemailKey ? [{ contentAttachment: { contentType: 'audio/wav', title: 'voicemail.wav', url: voicemailPath } }] : []),
        ],
      });
    }),
};
