import { clean, fhirInstant, sourceIdentifier, stableUuid } from './fhir-core.js';
import type { ChartMapper } from './model.js';

const VISIT_TYPE_TEXT: Record<string, string> = { in_person: 'In person', virtual: 'Virtual visit' };

/**
 * Calendar appointments: one Appointment per series, at its first occurrence; a recurring series
 * carries its rule in the comment. Tidewell does not record attendance, so every one is `booked`.
 */
export const appointments: ChartMapper = {
  kind: 'appointment',
  map: (src, ctx) =>
    src.appointments.map((a) => {
      const start = fhirInstant(a.start);
      const end = start ? new Date(Date.parse(start) + a.durationMinutes * 60_000).toISOString() : undefined;
      const provider = ctx.practitioner({ userId: a.providerId });
      const r = a.recurrence;
      const rule = r.frequency === 'Never' ? '' : `Repeats ${r.frequency.toLowerCase()}${r.interval > 1 ? `, every ${r.interval}` : ''}${r.end === 'COUNT' ? `, ${r.count} times` : r.end === 'ON' && r.until ? `, until ${r.until}` : ''}.`;
      return clean({
        resourceType: 'Appointment',
        id: stableUuid('Appointment', src.practiceId, a.appointmentId),
        identifier: [sourceIdentifier(src.practiceId, 'appointment', a.appointmentId)],
        status: 'booked',
        serviceType: [{ text: VISIT_TYPE_TEXT[a.visitType] ?? a.visitType }],
        appointmentType: { text: a.appointmentTypeId },
        start,
        end,
        minutesDuration: a.durationMinutes > 0 ? a.durationMinutes : undefined,
        created: fhirInstant(a.createdAt),
        comment: [a.notes, rule].filter(Boolean).join(' ') || undefined,
        participant: [
          { actor: ctx.patientRef, required: 'required', status: 'accepted' },
          ...(provider ? [{ actor: provider, required: 'required', status: 'accepted' }] : []),
        ],
      });
    }),
};
