import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AppointmentOccurrence, CalendarView } from '../../../../../shared/calendar/calendar-schema.js';
import { VISIT_TYPE_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { useAppointmentRange, usePracticeCalendarSettings, useUserCalendarSettings } from '../calendar-api.js';
import {
  dateLabel,
  dayParts,
  isIsoDay,
  minutesOfDay,
  parseView,
  rangeOf,
  rangeTitle,
  stepDay,
  timeLabel,
  todayIn,
  viewDays,
  WEEKDAY_SHORT,
} from '../calendar-dates.js';
import { BookingDialog, type BookingTarget } from './booking-dialog.js';
import '../calendar.css';

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', work_week: 'Work week', month: 'Month', agenda: 'Agenda' };
const STEP_LABELS: Record<CalendarView, string> = { day: 'day', week: 'week', work_week: 'week', month: 'month', agenda: '30 days' };
const HOUR_PX = 48;
const FIRST_VISIBLE_HOUR = 7;

/** Spec shell §2.1: /calendar?date=YYYY-MM-DD&view=day|week|work_week|month|agenda&selectedDate=YYYY-MM-DD. */
export function CalendarPage() {
  const [params, setParams] = useSearchParams();
  const settings = usePracticeCalendarSettings();
  const me = useCurrentUser();
  const timeZone = settings.data?.timeZone;
  const mine = useUserCalendarSettings(me.data?.userId);
  // Without a view in the address, the calendar opens on the user's own choice (My calendar).
  const view = params.get('view') ? parseView(params.get('view')) : (mine.data?.defaultView ?? 'week');
  const requested = params.get('date')?.slice(0, 10);
  const date = isIsoDay(requested) ? requested : timeZone ? todayIn(timeZone) : null;
  const days = useMemo(() => (date ? viewDays(view, date) : []), [view, date]);
  const range = timeZone && days.length ? rangeOf(days, timeZone) : null;
  const appointments = useAppointmentRange(range);
  const [booking, setBooking] = useState<BookingTarget | null>(null);

  const go = (next: { date?: string; view?: CalendarView }) => {
    const p = new URLSearchParams(params);
    if (next.date) p.set('date', next.date);
    if (next.view) p.set('view', next.view);
    setParams(p);
  };

  if (settings.isError) {
    return (
      <Page title="Calendar">
        <p className="tw-empty" role="alert">
          {settings.error.message}
        </p>
      </Page>
    );
  }
  if (!timeZone || !date) {
    return (
      <Page title="Calendar">
        <Spinner label="Loading calendar" />
      </Page>
    );
  }

  const today = todayIn(timeZone);
  const occurrences = appointments.data?.occurrences ?? [];
  const byDay = new Map<string, AppointmentOccurrence[]>();
  for (const o of occurrences) {
    const list = byDay.get(o.occurrenceDay) ?? [];
    list.push(o);
    byDay.set(o.occurrenceDay, list);
  }
  const open = (o: AppointmentOccurrence) => setBooking({ kind: 'edit', occurrence: o });
  const bookAt = (day: string, time = '09:00') => setBooking({ kind: 'new', day, time });

  return (
    <Page
      title="Calendar"
      subtitle={`Times are in the practice's time zone, ${timeZone}.`}
      actions={
        <div className="tw-calendar__actions">
          <Button variant="primary" onPress={() => bookAt(isIsoDay(params.get('selectedDate')) ? params.get('selectedDate')! : date)}>
            Book appointment
          </Button>
        </div>
      }
    >
      <div className="tw-calendar">
        <div className="tw-calendar__toolbar">
          <div className="tw-calendar__nav">
            <Button onPress={() => go({ date: today })}>Today</Button>
            <Button aria-label={`Previous ${STEP_LABELS[view]}`} onPress={() => go({ date: stepDay(view, date, -1) })}>
              ‹
            </Button>
            <Button aria-label={`Next ${STEP_LABELS[view]}`} onPress={() => go({ date: stepDay(view, date, 1) })}>
              ›
            </Button>
            <h2 className="tw-calendar__title" aria-live="polite">
              {rangeTitle(view, days, date)}
            </h2>
            {appointments.isFetching ? <Spinner label="Loading appointments" /> : null}
          </div>
          <div className="tw-calendar__views" role="group" aria-label="View">
            {(Object.keys(VIEW_LABELS) as CalendarView[]).map((v) => (
              <Button key={v} variant={v === view ? 'primary' : 'secondary'} aria-pressed={v === view} onPress={() => go({ view: v })}>
                {VIEW_LABELS[v]}
              </Button>
            ))}
          </div>
        </div>
        {appointments.isError ? (
          <p className="tw-calendar__alert" role="alert">
            {appointments.error.message}
          </p>
        ) : null}
        {view === 'month' ? (
          <MonthGrid days={days} month={dayParts(date).month} today={today} byDay={byDay} timeZone={timeZone} onOpen={open} onDay={(d) => go({ date: d, view: 'day' })} />
        ) : view === 'agenda' ? (
          <Agenda days={days} byDay={byDay} timeZone={timeZone} onOpen={open} loading={appointments.isPending} />
        ) : (
          <TimeGrid days={days} today={today} byDay={byDay} timeZone={timeZone} onOpen={open} onSlot={bookAt} />
        )}
      </div>
      {booking ? <BookingDialog target={booking} timeZone={timeZone} currentUserId={me.data?.userId} onClose={() => setBooking(null)} /> : null}
    </Page>
  );
}

function occurrenceLabel(o: AppointmentOccurrence, timeZone: string): string {
  return `${timeLabel(o.start, timeZone)} to ${timeLabel(o.end, timeZone)}, ${o.patientName}, ${o.appointmentTypeName} with ${o.providerName}${o.recurring ? ', repeats' : ''}`;
}

function dayHeading(day: string): string {
  const p = dayParts(day);
  return `${WEEKDAY_SHORT[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()]} ${p.month}/${p.day}`;
}

/** Side-by-side columns for overlapping appointments of one day (different providers). */
function layout(list: AppointmentOccurrence[]): Map<AppointmentOccurrence, { column: number; columns: number }> {
  const out = new Map<AppointmentOccurrence, { column: number; columns: number }>();
  let cluster: AppointmentOccurrence[] = [];
  let clusterEnd = '';
  const flush = () => {
    const ends: string[] = [];
    const columnOf = new Map<AppointmentOccurrence, number>();
    for (const o of cluster) {
      let c = ends.findIndex((end) => end <= o.start);
      if (c === -1) c = ends.length;
      ends[c] = o.end;
      columnOf.set(o, c);
    }
    for (const o of cluster) out.set(o, { column: columnOf.get(o)!, columns: ends.length });
    cluster = [];
  };
  for (const o of [...list].sort((a, b) => a.start.localeCompare(b.start))) {
    if (cluster.length && o.start >= clusterEnd) flush();
    cluster.push(o);
    clusterEnd = clusterEnd > o.end && cluster.length > 1 ? clusterEnd : o.end;
  }
  flush();
  return out;
}

function TimeGrid({ days, today, byDay, timeZone, onOpen, onSlot }: { days: string[]; today: string; byDay: Map<string, AppointmentOccurrence[]>; timeZone: string; onOpen: (o: AppointmentOccurrence) => void; onSlot: (day: string, time: string) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = FIRST_VISIBLE_HOUR * HOUR_PX - 12;
  }, []);
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <div className="tw-calendar__grid" style={{ ['--tw-cal-days' as string]: days.length }}>
      <div className="tw-calendar__grid-head" aria-hidden="true">
        <span />
        {days.map((d) => (
          <span key={d} className={d === today ? 'tw-calendar__today' : undefined}>
            {dayHeading(d)}
          </span>
        ))}
      </div>
      <div className="tw-calendar__scroll" ref={scroller} tabIndex={0} role="region" aria-label="Appointments by time">
        <div className="tw-calendar__body" style={{ height: 24 * HOUR_PX }}>
          <div className="tw-calendar__hours" aria-hidden="true">
            {hours.map((h) => (
              <span key={h} style={{ top: h * HOUR_PX }}>
                {h === 0 ? '' : `${h % 12 || 12} ${h < 12 ? 'AM' : 'PM'}`}
              </span>
            ))}
          </div>
          {days.map((d) => {
            const list = byDay.get(d) ?? [];
            const placed = layout(list);
            return (
              <ul key={d} className="tw-calendar__day" aria-label={`${dayHeading(d)}: ${list.length} appointment${list.length === 1 ? '' : 's'}`}>
                {hours.map((h) => (
                  // Empty hours book with a click; the keyboard books with the Book appointment button.
                  <li key={h} className="tw-calendar__slot" style={{ top: h * HOUR_PX, height: HOUR_PX }} aria-hidden="true" onClick={() => onSlot(d, `${String(h).padStart(2, '0')}:00`)} />
                ))}
                {list.map((o) => {
                  const top = (minutesOfDay(o.start, timeZone) / 60) * HOUR_PX;
                  const height = Math.max(20, ((new Date(o.end).getTime() - new Date(o.start).getTime()) / 3_600_000) * HOUR_PX);
                  const p = placed.get(o)!;
                  return (
                    <li key={`${o.appointmentId}-${o.occurrenceDay}`} className="tw-calendar__event-item" style={{ top, height, left: `${(p.column / p.columns) * 100}%`, width: `${100 / p.columns}%` }}>
                      <button type="button" className="tw-calendar__event" style={{ borderLeftColor: o.color }} aria-label={occurrenceLabel(o, timeZone)} onClick={() => onOpen(o)}>
                        <strong>{o.patientName}</strong>
                        <span>
                          {timeLabel(o.start, timeZone)} · {o.appointmentTypeName}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const MONTH_CELL_MAX = 3;

function MonthGrid({ days, month, today, byDay, timeZone, onOpen, onDay }: { days: string[]; month: number; today: string; byDay: Map<string, AppointmentOccurrence[]>; timeZone: string; onOpen: (o: AppointmentOccurrence) => void; onDay: (day: string) => void }) {
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
            <li key={d} className={['tw-calendar__cell', p.month !== month ? 'tw-calendar__cell--other' : '', d === today ? 'tw-calendar__cell--today' : ''].filter(Boolean).join(' ')}>
              <button type="button" className="tw-calendar__cell-day" aria-label={`${dateLabel(d)}, ${list.length} appointment${list.length === 1 ? '' : 's'}: open the day`} onClick={() => onDay(d)}>
                {p.day}
              </button>
              {list.slice(0, MONTH_CELL_MAX).map((o) => (
                <button key={o.appointmentId} type="button" className="tw-calendar__chip" style={{ borderLeftColor: o.color }} aria-label={occurrenceLabel(o, timeZone)} onClick={() => onOpen(o)}>
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

function Agenda({ days, byDay, timeZone, onOpen, loading }: { days: string[]; byDay: Map<string, AppointmentOccurrence[]>; timeZone: string; onOpen: (o: AppointmentOccurrence) => void; loading: boolean }) {
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
                  <span>{o.visitType === 'virtual' ? VISIT_TYPE_LABELS.virtual : o.bookingLocationName ?? VISIT_TYPE_LABELS.in_person}</span>
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
