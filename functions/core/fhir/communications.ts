import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** The author messaging gives a text the patient sent (functions/messaging/sms-inbound.ts). */
const INBOUND_AUTHOR_ID = 'sms-inbound';
/** That author, for a text the patient sent that comes back from an export: taken by the texting line, not a person. */
export const TEXTING_LINE = { userId: INBOUND_AUTHOR_ID, name: 'Text message' } as const;
/** The category Tidewell's export gives a text of a conversation, as against a logged one. */
export const CONVERSATION_TEXT = 'Text message';
/**
 * The two numbers of a conversation text (sub-extensions `practice` and `patient`, each a phone
 * ContactPoint): what a practice restored from its export needs to put the text back in its conversation.
 */
export const TEXT_NUMBERS_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/text-numbers';

type Sms = {
  text?: string;
  direction?: 'inbound' | 'outbound';
  deliveryStatus?: string;
  timestamp?: string;
  from?: string;
  to?: string;
  sentBy?: string | null;
  practicePhoneNumber?: string;
  patientPhoneNumber?: string;
};

const phone = (url: string, value: string | undefined) => (value ? [{ url, valueContactPoint: { system: 'phone', value } }] : []);
const numbersOf = (d: Sms) => {
  const parts = [...phone('practice', d.practicePhoneNumber), ...phone('patient', d.patientPhoneNumber)];
  return parts.length ? [{ url: TEXT_NUMBERS_EXTENSION, extension: parts }] : undefined;
};

/** Texts with the patient: one Communication each, the patient its sender or recipient. */
export const textMessages: ChartMapper = {
  kind: 'text',
  map: (src, ctx) =>
    src.notes
      .filter((n) => n.noteType === 'SMS' || n.noteType === 'SMS_LOG')
      .map((n) => {
        const d = n.data as Sms;
        const inbound = d.direction === 'inbound';
        const failed = n.status === 'FAILED' || d.deliveryStatus === 'FAILED';
        // An inbound text is authored by the messaging line itself ("Text message"), not a person of the practice:
        // the patient is its sender, and no Practitioner is made up for the line.
        const practice = n.author?.userId === INBOUND_AUTHOR_ID ? undefined : ctx.practitioner(n.author);
        return clean({
          resourceType: 'Communication',
          id: stableUuid('Communication', src.practiceId, n.noteId),
          identifier: [sourceIdentifier(src.practiceId, 'text', n.noteId)],
          extension: n.noteType === 'SMS' ? numbersOf(d) : undefined,
          status: failed ? 'not-done' : 'completed',
          category: [
            {
              coding: [{ system: SYSTEMS.communicationCategory, code: 'notification', display: 'Notification' }],
              text: n.noteType === 'SMS' ? CONVERSATION_TEXT : 'Logged text message',
            },
          ],
          medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'SMSWRIT', display: 'SMS written' }] }],
          subject: ctx.patientRef,
          sent: fhirInstant(d.timestamp ?? n.eventTimestamp),
          received: inbound ? fhirInstant(d.timestamp ?? n.eventTimestamp) : undefined,
          sender: inbound ? ctx.patientRef : practice,
          recipient: inbound ? (practice ? [practice] : []) : [ctx.patientRef],
          payload: [{ contentString: d.text || n.data.text || '' }],
        });
      }),
};
