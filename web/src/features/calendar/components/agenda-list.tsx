import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { VISIT_TYPE_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { dateLabel, timeLabel } from '../calendar-dates.js';
import { dayHeading, occurrenceLabel } from './occurrence-text.js';

/** The agenda view: the next 30 days' appointments as a list, only the days that have any. */
export function Agenda({
  days,
  byDay,
  timeZone,
  onOpen,
  loading,
}: {
  days: string[];
  byDay: Map<string, AppointmentOccurrence[]>;
  timeZone: string;
  onOpen: (o: AppointmentOccurrence) => void;
  loading: boolean;
}) {
  const withAppointments = days.filter((d) => byDay.has(d));
  if (!withAppointments.length) return <p className="tw-empty">{loading ? 'Loading appointments…' : 'No appointments in these 30 days.'}</p>;
  return (
    <div className="tw-calendar__agenda">
      {withAppointments.map((d) => (
        <section key={d} aria-label={dateLabel(d)}>
          <h3 className="tw-calendar__agenda-day">
            {dayHeading(d)} · {dateLabel(d)}
          </h3>
          <ul>
            {byDay.get(d)!.map((o) => (
              <li key={o.appointmentId}>
                <button type="button" className="tw-calendar__agenda-row" onClick={() => onOpen(o)} aria-label={occurrenceLabel(o, timeZone)}>
                  <span className="tw-calendar__agenda-time">
                    {timeLabel(o.start, timeZone)} – {timeLabel(o.end, timeZone)}
                  </span>
                  <span className="tw-calendar__swatch" style={{ background: o.color }} aria-hidden="true" />
                  <strong>{o.patientName}</strong>
                  <span>{o.appointmentTypeName}</span>
                  <span>{o.providerName}</span>
                  <span>{o.visitType === 'virtual' ? VISIT_TYPE_LABELS.virtual : (o.bookingLocationName ?? VISIT_TYPE_LABELS.in_person)}</span>
                  {o.recurring ? <span className="tw-calendar__repeats">Repeats</span> : null}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
