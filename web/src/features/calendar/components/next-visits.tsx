import { ARRIVAL_STATUS_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { zonedParts } from '../../../../../shared/calendar/recurrence.js';
import { useUpcomingVisits } from '../api/calendar-api.js';
import { dateLabel, timeLabel, WEEKDAY_SHORT } from '../calendar-dates.js';
import '../calendar.css';

/** The chart header's next visits: the next one or two appointments still ahead, when and with whom. */
export function NextVisits({ patientId }: { patientId: string }) {
  const upcoming = useUpcomingVisits(patientId);
  if (upcoming.isPending) return null;
  if (upcoming.isError) return <p className="tw-next-visits">Next visits could not be loaded.</p>;
  const { timeZone, visits } = upcoming.data;
  const weekday = (iso: string) => {
    const p = zonedParts(new Date(iso), timeZone);
    return WEEKDAY_SHORT[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()];
  };
  return (
    <div className="tw-next-visits" data-testid="next-visits">
      <span className="tw-next-visits__label" id={`next-visits-${patientId}`}>
        Next visits
      </span>
      {visits.length === 0 ? (
        <span>None booked</span>
      ) : (
        <ul className="tw-next-visits" aria-labelledby={`next-visits-${patientId}`}>
          {visits.map((v) => (
            <li key={`${v.appointmentId}-${v.occurrenceDay}`}>
              {weekday(v.start)} {dateLabel(v.occurrenceDay)} at {timeLabel(v.start, timeZone)} with {v.providerName}
              {v.arrivalStatus !== 'scheduled' ? ` (${ARRIVAL_STATUS_LABELS[v.arrivalStatus]})` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
