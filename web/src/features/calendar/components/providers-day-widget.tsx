import { ARRIVAL_STATUS_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { useShownAnswer } from '../../../lib/use-shown-answer.js';
import { useAppointmentRange, usePracticeCalendarSettings } from '../api/calendar-api.js';
import { rangeOf, timeLabel, todayIn } from '../calendar-dates.js';
import '../calendar.css';

/**
 * Dashboard: today's appointments in the practice's zone, with where each patient is. A provider
 * sees their own day; the front desk and admins see every provider's, with the provider named.
 */
export function ProvidersDayWidget() {
  const me = useCurrentUser().data;
  const settings = usePracticeCalendarSettings();
  const timeZone = settings.data?.timeZone;
  const today = timeZone ? todayIn(timeZone) : null;
  const own = me?.permissionGroup === 'provider';
  const appointments = useShownAnswer(useAppointmentRange(today && me ? rangeOf([today], timeZone!) : null, own ? me!.userId : null));
  if (settings.isError || appointments.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  if (!timeZone || !me || appointments.status === 'pending') return <Spinner label="Loading today's appointments" />;
  const list = appointments.data.occurrences;
  return (
    <>
      {list.length === 0 ? (
        <p className="tw-widget__empty">{own ? 'No appointments for you today.' : 'No appointments today.'}</p>
      ) : (
        <ul className="tw-widget__list" aria-label={own ? 'Your appointments today' : "Today's appointments"}>
          {list.map((o) => (
            <li key={`${o.appointmentId}-${o.occurrenceDay}`} className="tw-widget__item tw-providers-day__item">
              <span className="tw-widget__meta tw-providers-day__time">{timeLabel(o.start, timeZone)}</span>
              <span className="tw-providers-day__who">
                <Link href={paths.patient(o.patientId)} className="tw-widget__link">
                  {o.patientName}
                </Link>
                <span className="tw-widget__meta">
                  {o.appointmentTypeName}
                  {own ? '' : ` · ${o.providerName}`}
                </span>
              </span>
              <span className={`tw-arrival tw-arrival--${o.arrivalStatus}`}>{ARRIVAL_STATUS_LABELS[o.arrivalStatus]}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="tw-widget__footer">
        <Link href={`${paths.calendar()}?date=${today}&view=day`}>Open today's calendar</Link>
      </div>
    </>
  );
}
