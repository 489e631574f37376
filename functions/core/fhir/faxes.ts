import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

type FaxNote = {
  direction?: 'INBOUND' | 'OUTBOUND';
  to?: string;
  from?: string;
  recipientName?: string | null;
  text?: string;
  sentAt?: string;
  pages?: number | null;
};

/**
 * Faxes sent from or received into the chart: one Communication each (medium FAXWRIT), the fax's
 * number as its other party and its PDF as the payload, pointing at the binary the export carries.
 */
export const faxes: ChartMapper = {
  kind: 'fax',
  map: (src, ctx) =>
    src.notes
      .filter((n) => n.noteType === 'FAX')
      .map((n) => {
        const d = n.data as FaxNote;
        const inbound = d.direction === 'INBOUND';
        const practice = ctx.practitioner(n.author);
        const failed = n.status === 'FAILED';
        const other = inbound ? d.from : d.to;
        const at = fhirInstant(d.sentAt ?? n.eventTimestamp);
        return clean({
          resourceType: 'Communication',
          id: stableUuid('Communication', src.practiceId, n.noteId),
          identifier: [sourceIdentifier(src.practiceId, 'fax', n.noteId)],
          status: failed ? 'not-done' : inbound || n.status === 'DELIVERED' ? 'completed' : 'in-progress',
          category: [
            { coding: [{ system: SYSTEMS.communicationCategory, code: 'notification', display: 'Notification' }], text: inbound ? 'Fax received' : 'Fax sent' },
          ],
          medium: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationMode', code: 'FAXWRIT', display: 'telefax' }] }],
          subject: ctx.patientRef,
          sent: inbound ? undefined : at,
          received: inbound ? at : undefined,
          sender: inbound ? undefined : practice,
          recipient: inbound ? (practice ? [practice] : []) : [],
          note: [
            ...(other ? [{ text: `${inbound ? 'From' : 'To'} fax ${other}${d.recipientName ? ` (${d.recipientName})` : ''}` }] : []),
            ...(d.pages ? [{ text: `${d.pages} pages` }] : []),
          ],
          payload: [
            ...(d.text ? [{ contentString: d.text }] : []),
            ...n.files.map((f) => ({ contentAttachment: { contentType: f.contentType || 'application/pdf', title: f.name, url: src.filePaths.get(f.key) } })),
          ],
        });
      }),
};
