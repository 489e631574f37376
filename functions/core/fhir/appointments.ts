import { DEFAULT_TIME_ZONE, type Appointment, type BookingLocation } from '../../../shared/calendar/calendar-schema.js';
import { expandOccurrences } from '../../../shared/calendar/recurrence.js';
import { clean, fhirInstant, refTo, sourceIdentifier, stableUuid, type FhirResource, type Reference } from './fhir-core.js';
import type { ChartMapper, ChartSource, MapContext } from './model.js';

const VISIT_TYPE_TEXT: Record<string, string> = { in_person: 'In person', virtual: 'Virtual visit' };

/** R4 Appointment has no recurrence: a series carries Tidewell's rule here, so an import recreates the series. */
export const RECURRENCE_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/appointment-recurrence';
/** On one occurrence of a series changed or cancelled alone: the series it belongs to and its day there. */
export const OCCURRENCE_EXTENSION = 'https://tidewell.app/fhir/StructureDefinition/appointment-occurrence';

const DAY_MS = 86_400_000;

/** "Repeats weekly, every 2, 4 times.": what the rule says, for readers that do not know the extension. */
function describeRule(r: Appointment['recurrence']): string {
  if (r.frequency === 'Never') return '';
  return `Repeats ${r.frequency.toLowerCase()}${r.interval > 1 ? `, every ${r.interval}` : ''}${r.end === 'COUNT' ? `, ${r.count} times` : r.end === 'ON' && r.until ? `, until ${r.until}` : ''}.`;
}

function recurrenceExtension(r: Appointment['recurrence']) {
  if (r.frequency === 'Never') return undefined;
  return {
    url: RECURRENCE_EXTENSION,
    extension: [
      { url: 'frequency', valueCode: r.frequency },
      { url: 'interval', valuePositiveInt: r.interval },
      ...(r.frequency === 'Monthly'
        ? [{ url: 'monthlyMode', valueCode: r.monthlyMode }, ...(r.monthlyMode === 'BYDAY' ? [{ url: 'ordinal', valueInteger: r.ordinal }] : [])]
        : []),
      { url: 'end', valueCode: r.end },
      ...(r.end === 'COUNT' ? [{ url: 'count', valuePositiveInt: r.count }] : []),
      ...(r.end === 'ON' && r.until ? [{ url: 'until', valueDate: r.until }] : []),
    ],
  };
}

/**
 * The day is in this practice's zone; `originalStart`, the instant the occurrence had in the
 * series, lets a practice in another zone find the same occurrence of its copy of the series.
 */
const occurrenceExtension = (series: Reference, day: string, originalStart: string | undefined) => ({
  url: OCCURRENCE_EXTENSION,
  extension: [
    { url: 'series', valueReference: series },
    { url: 'day', valueDate: day },
    ...(originalStart ? [{ url: 'originalStart', valueDateTime: originalStart }] : []),
  ],
});

/** Where the series had the occurrence of `day` before it was taken out of it. */
function occurrenceOf(series: Appointment, day: string, timeZone: string) {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const around = Date.UTC(y, m - 1, d);
  return expandOccurrences({ ...series, excludedDays: [] }, timeZone, new Date(around - 2 * DAY_MS), new Date(around + 3 * DAY_MS)).find((o) => o.day === day);
}

const locationId = (practiceId: string, ident: string) => stableUuid('Location', practiceId, ident);

/** A booking location as Tidewell keeps it: its name and its address as one line. */
function locationResource(practiceId: string, l: BookingLocation): FhirResource {
  return clean({
    resourceType: 'Location',
    id: locationId(practiceId, l.ident),
    identifier: [sourceIdentifier(practiceId, 'location', l.ident)],
    status: l.status === 'active' ? 'active' : 'inactive',
    name: l.name,
    address: l.address ? { text: l.address } : undefined,
  });
}

const appointmentId = (practiceId: string, id: string) => stableUuid('Appointment', practiceId, id);

/** What a series and each occurrence of it share: who, what and where. */
function common(src: ChartSource, ctx: MapContext, a: Appointment, locations: Map<string, FhirResource>) {
  const provider = ctx.practitioner({ userId: a.providerId });
  const booked = a.bookingLocationId ? src.directory?.locations.get(a.bookingLocationId) : undefined;
  if (booked && !locations.has(booked.ident)) locations.set(booked.ident, locationResource(src.practiceId, booked));
  const typeName = src.directory?.appointmentTypes.get(a.appointmentTypeId);
  return {
    serviceType: [{ text: VISIT_TYPE_TEXT[a.visitType] ?? a.visitType }],
    appointmentType: { text: typeName ?? a.appointmentTypeId },
    participant: [
      { actor: ctx.patientRef, required: 'required', status: 'accepted' },
      ...(provider ? [{ actor: provider, required: 'required', status: 'accepted' }] : []),
      ...(booked ? [{ actor: refTo({ id: locationId(src.practiceId, booked.ident) }, booked.name), required: 'required', status: 'accepted' }] : []),
    ],
  };
}

/**
 * Calendar appointments: one Appointment per series at its first occurrence, its rule in a Tidewell
 * extension (and in words in the description); an occurrence changed alone is its own Appointment
 * naming its series and day, and one cancelled alone is a `cancelled` Appointment at the time it had.
 * Tidewell does not record attendance, so every other one is `booked`.
 */
export const appointments: ChartMapper = {
  kind: 'appointment',
  map: (src, ctx) => {
    const locations = new Map<string, FhirResource>();
    const timeZone = src.directory?.timeZone ?? DEFAULT_TIME_ZONE;
    const byId = new Map(src.appointments.map((a) => [a.appointmentId, a]));
    const out: FhirResource[] = [];
    for (const a of src.appointments) {
      const start = fhirInstant(a.start);
      const end = start ? new Date(Date.parse(start) + a.durationMinutes * 60_000).toISOString() : undefined;
      const shared = common(src, ctx, a, locations);
      const series = a.detachedFrom ? byId.get(a.detachedFrom.appointmentId) : undefined;
      out.push(
        clean({
          resourceType: 'Appointment',
          id: appointmentId(src.practiceId, a.appointmentId),
          identifier: [sourceIdentifier(src.practiceId, 'appointment', a.appointmentId)],
          extension: [
            recurrenceExtension(a.recurrence),
            series && a.detachedFrom
              ? occurrenceExtension(
                  refTo({ id: appointmentId(src.practiceId, series.appointmentId) }),
                  a.detachedFrom.occurrenceDay,
                  occurrenceOf(series, a.detachedFrom.occurrenceDay, timeZone)?.start,
                )
              : undefined,
          ],
          status: 'booked',
          ...shared,
          description: describeRule(a.recurrence),
          start,
          end,
          minutesDuration: a.durationMinutes > 0 ? a.durationMinutes : undefined,
          created: fhirInstant(a.createdAt),
          comment: a.notes,
        }),
      );
      if (a.recurrence.frequency === 'Never') continue;
      // A day taken out of the series with no appointment of its own in its place was cancelled alone.
      const moved = new Set(src.appointments.filter((x) => x.detachedFrom?.appointmentId === a.appointmentId).map((x) => x.detachedFrom!.occurrenceDay));
      for (const day of [...new Set(a.excludedDays)].filter((d) => !moved.has(d)).sort()) {
        const was = occurrenceOf(a, day, timeZone);
        if (!was) continue;
        out.push(
          clean({
            resourceType: 'Appointment',
            id: stableUuid('Appointment', src.practiceId, a.appointmentId, 'cancelled', day),
            identifier: [sourceIdentifier(src.practiceId, 'appointment-occurrence', `${a.appointmentId}#${day}`)],
            extension: [occurrenceExtension(refTo({ id: appointmentId(src.practiceId, a.appointmentId) }), day, was.start)],
            status: 'cancelled',
            ...shared,
            start: was.start,
            end: was.end,
            minutesDuration: a.durationMinutes > 0 ? a.durationMinutes : undefined,
            comment: a.notes,
          }),
        );
      }
    }
    return [...locations.values(), ...out];
  },
};
