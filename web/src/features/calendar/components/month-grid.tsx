import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { dateLabel, dayParts, timeLabel, WEEKDAY_SHORT } from '../calendar-dates.js';
import { occurrenceLabel } from './occurrence-text.js';

const MONTH_CELL_MAX = 3;

/** The month view: a cell a day with its first appointments; the day's number or "+n more" opens the day. */
export function MonthGrid({
  days,
  month,
  today,
  byDay,
  timeZone,
  onOpen,
  onDay,
}: {
  days: string[];
  month: number;
  today: string;
  byDay: Map<string, AppointmentOccurrence[]>;
  timeZone: string;
  onOpen: (o: AppointmentOccurrence) => void;
  onDay: (day: string) => void;
}) {
  return (
    <div className="tw-calendar__month">
      <div className="tw-calendar__month-head" aria-hidden="true">
        {WEEKDAY_SHORT.map((w) => (
          <span key={w}>{w}</span>
        ))}
      </div>
      <ul className="tw-calendar__month-grid" aria-label="Days of the month">
        {days.map((d) => {
          const list = byDay.get(d) ?? [];
          const p = dayParts(d);
          return (
            <li
              key={d}
              className={['tw-calendar__cell', p.month !== month ? 'tw-calendar__cell--other' : '', d === today ? 'tw-calendar__cell--today' : '']
                .filter(Boolean)
                .join(' ')}
            >
              <button
                type="button"
                className="tw-calendar__cell-day"
                aria-label={`${dateLabel(d)}, ${list.length} appointment${list.length === 1 ? '' : 's'}: open the day`}
                onClick={() => onDay(d)}
              >
                {p.day}
              </button>
              {list.slice(0, MONTH_CELL_MAX).map((o) => (
                <button
                  key={o.appointmentId}
                  type="button"
                  className="tw-calendar__chip"
                  style={{ borderLeftColor: o.color }}
                  aria-label={occurrenceLabel(o, timeZone)}
                  onClick={() => onOpen(o)}
                >
                  {timeLabel(o.start, timeZone)} {o.patientName}
                </button>
              ))}
              {list.length > MONTH_CELL_MAX ? (
                <button type="button" className="tw-calendar__more" onClick={() => onDay(d)}>
                  +{list.length - MONTH_CELL_MAX} more
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
