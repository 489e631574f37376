import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AppointmentOccurrence, CalendarView } from '../../../../../shared/calendar/calendar-schema.js';
import { ARRIVAL_STATUS_LABELS, VISIT_TYPE_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import { hoursConflict, shadedSpans, type ProviderTime, type ShadedSpan } from '../../../../../shared/calendar/working-hours.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { fetchUserCalendarSettings, useAppointmentRange, usePracticeCalendarSettings, useSaveAppointment, useUserCalendarSettings } from '../calendar-api.js';
import {
  dateLabel,
  dayParts,
  isIsoDay,
  minutesOfDay,
  parseView,
  rangeOf,
  rangeTitle,
  shiftWallClock,
  stepDay,
  timeLabel,
  todayIn,
  viewDays,
  WEEKDAY_SHORT,
} from '../calendar-dates.js';
import { HoursDialog, movedInput, ScopeDialog, type ChangeScope } from './appointment-changes.js';
import { AppointmentView } from './appointment-view.js';
import { BookingDialog, type BookingTarget } from './booking-dialog.js';
import '../calendar.css';

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', work_week: 'Work week', month: 'Month', agenda: 'Agenda' };
const STEP_LABELS: Record<CalendarView, string> = { day: 'day', week: 'week', work_week: 'week', month: 'month', agenda: '30 days' };
/** Before a provider's settings load, nothing is shaded as theirs. */
const NO_HOURS: ProviderTime = { workingHours: [], blockedTimes: [], daysOff: [] };
const HOUR_PX = 48;
const FIRST_VISIBLE_HOUR = 7;
/** Dragging and the keyboard move and resize in quarter hours. */
const SNAP_MINUTES = 15;

/** A move or resize waiting on the questions it asks: outside the provider's time, then which of a series. */
interface PendingChange {
  occurrence: AppointmentOccurrence;
  start: string;
  end: string;
  step: 'hours' | 'scope';
  conflict: { kind: 'off' | 'blocked'; label: string } | null;
}

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
  const providerFilter = params.get('provider');
  const appointments = useAppointmentRange(range, providerFilter);
  const [booking, setBooking] = useState<BookingTarget | null>(null);
  const [viewing, setViewing] = useState<AppointmentOccurrence | null>(null);
  const users = usePracticeUsers();
  const providers = (users.data ?? []).filter((u) => u.permissionGroup !== 'no_access' && u.userStatus !== 'deleted');
  // The grid shades the chosen provider's week, or the signed-in user's when every provider is shown.
  const shadedFor = providerFilter ?? me.data?.userId;
  const shadedSettings = useUserCalendarSettings(shadedFor ?? undefined);
  const chosen = providerFilter ? providers.find((u) => u.userId === providerFilter) : undefined;
  const shadedWhose = chosen ? `${displayUserName(chosen)}'s` : 'your';
  const queryClient = useQueryClient();
  const save = useSaveAppointment();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);

  const go = (next: { date?: string; view?: CalendarView; provider?: string | null }) => {
    const p = new URLSearchParams(params);
    if (next.date) p.set('date', next.date);
    if (next.view) p.set('view', next.view);
    if (next.provider !== undefined) {
      if (next.provider) p.set('provider', next.provider);
      else p.delete('provider');
    }
    setParams(p);
  };

  async function commit(change: PendingChange, scope: ChangeScope) {
    setPending(null);
    const o = change.occurrence;
    try {
      await save.mutateAsync({ appointmentId: o.appointmentId, input: movedInput(o, change.start, change.end, scope), occurrence: scope === 'one' ? o.occurrenceDay : undefined });
      setMoveError(null);
      showToast(`Appointment moved to ${timeLabel(change.start, timeZone!)} – ${timeLabel(change.end, timeZone!)}`, { tone: 'success' });
    } catch (error) {
      setMoveError(error instanceof Error ? error.message : 'The appointment was not moved');
    }
  }
  const afterHours = (change: PendingChange) => (change.occurrence.recurring ? setPending({ ...change, step: 'scope' }) : void commit(change, 'series'));
  /** A drag or a key moved or resized an occurrence: ask what needs asking, then save. */
  async function requestChange(occurrence: AppointmentOccurrence, start: string, end: string) {
    setMoveError(null);
    let conflict: PendingChange['conflict'] = null;
    try {
      const theirs = await fetchUserCalendarSettings(queryClient, occurrence.providerId);
      conflict = hoursConflict(start, end, timeZone!, theirs);
    } catch {
      // Without their settings the move is still checked for double booking by the server.
    }
    const change: PendingChange = { occurrence, start, end, step: 'hours', conflict };
    if (conflict) setPending(change);
    else afterHours(change);
  }

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
  // An appointment opens on its view; Edit there opens the booking form.
  const open = (o: AppointmentOccurrence) => setViewing(o);
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
          <Select
            label="Provider"
            className="tw-calendar__provider"
            options={[{ id: 'all', label: 'All providers' }, ...providers.map((u) => ({ id: u.userId, label: displayUserName(u) }))]}
            value={providerFilter ?? 'all'}
            onChange={(id) => go({ provider: id && id !== 'all' ? id : null })}
          />
          <div className="tw-calendar__views" role="group" aria-label="View">
            {(Object.keys(VIEW_LABELS) as CalendarView[]).map((v) => (
              <Button key={v} variant={v === view ? 'primary' : 'secondary'} aria-pressed={v === view} onPress={() => go({ view: v })}>
                {VIEW_LABELS[v]}
              </Button>
            ))}
          </div>
        </div>
        {view !== 'month' && view !== 'agenda' ? (
          <p className="tw-calendar__legend" id="tw-calendar-legend">
            <span className="tw-calendar__legend-off" aria-hidden="true" /> Shaded: outside {shadedWhose} working hours.{' '}
            <span className="tw-calendar__legend-blocked" aria-hidden="true" /> Striped: blocked time. Drag an appointment to move it or its bottom edge to change its length; with the keyboard, Alt+arrow keys move it and Alt+Shift+Up or Down change its length.
          </p>
        ) : null}
        {moveError ? (
          <p className="tw-calendar__alert" role="alert">
            {moveError}
          </p>
        ) : null}
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
          <TimeGrid
            days={days}
            today={today}
            byDay={byDay}
            timeZone={timeZone}
            onOpen={open}
            onSlot={bookAt}
            onChange={(o, start, end) => void requestChange(o, start, end)}
            shading={(d) => shadedSpans(d, shadedSettings.data ?? NO_HOURS)}
          />
        )}
      </div>
      {pending?.step === 'hours' && pending.conflict ? (
        <HoursDialog
          conflict={pending.conflict}
          providerName={pending.occurrence.providerName}
          start={pending.start}
          end={pending.end}
          timeZone={timeZone}
          confirmLabel="Move anyway"
          onConfirm={() => afterHours(pending)}
          onClose={() => setPending(null)}
        />
      ) : null}
      {pending?.step === 'scope' ? <ScopeDialog occurrence={pending.occurrence} action="change" onChoose={(scope) => void commit(pending, scope)} onClose={() => setPending(null)} /> : null}
      {viewing ? (
        <AppointmentView
          occurrence={viewing}
          timeZone={timeZone}
          onClose={() => setViewing(null)}
          onEdit={(o) => {
            setViewing(null);
            setBooking({ kind: 'edit', occurrence: o });
          }}
        />
      ) : null}
      {booking ? <BookingDialog target={booking} timeZone={timeZone} currentUserId={me.data?.userId} onClose={() => setBooking(null)} /> : null}
    </Page>
  );
}

function occurrenceLabel(o: AppointmentOccurrence, timeZone: string): string {
  const arrival = o.arrivalStatus && o.arrivalStatus !== 'scheduled' ? `, ${ARRIVAL_STATUS_LABELS[o.arrivalStatus]}` : '';
  return `${timeLabel(o.start, timeZone)} to ${timeLabel(o.end, timeZone)}, ${o.patientName}, ${o.appointmentTypeName} with ${o.providerName}${arrival}${o.recurring ? ', repeats' : ''}`;
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

interface Drag {
  key: string;
  occurrence: AppointmentOccurrence;
  mode: 'move' | 'resize';
  x0: number;
  y0: number;
  columnWidth: number;
  dx: number;
  dy: number;
  moved: boolean;
}

const snap = (minutes: number) => Math.round(minutes / SNAP_MINUTES) * SNAP_MINUTES;
const lengthOf = (o: AppointmentOccurrence) => Math.round((new Date(o.end).getTime() - new Date(o.start).getTime()) / 60_000);

function TimeGrid({
  days,
  today,
  byDay,
  timeZone,
  onOpen,
  onSlot,
  onChange,
  shading,
}: {
  days: string[];
  today: string;
  byDay: Map<string, AppointmentOccurrence[]>;
  timeZone: string;
  onOpen: (o: AppointmentOccurrence) => void;
  onSlot: (day: string, time: string) => void;
  onChange: (o: AppointmentOccurrence, start: string, end: string) => void;
  shading: (day: string) => ShadedSpan[];
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  // A drag ends with a click on the same button; that click must not open the appointment.
  const justDragged = useRef(false);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = FIRST_VISIBLE_HOUR * HOUR_PX - 12;
  }, []);
  const hours = Array.from({ length: 24 }, (_, h) => h);

  const begin = (event: PointerEvent<HTMLElement>, o: AppointmentOccurrence, mode: Drag['mode']) => {
    if (event.button !== 0) return;
    const column = (event.currentTarget.closest('.tw-calendar__day') as HTMLElement | null)?.getBoundingClientRect().width ?? 100;
    event.currentTarget.setPointerCapture(event.pointerId);
    if (mode === 'resize') event.stopPropagation();
    setDrag({ key: `${o.appointmentId}-${o.occurrenceDay}`, occurrence: o, mode, x0: event.clientX, y0: event.clientY, columnWidth: column, dx: 0, dy: 0, moved: false });
  };
  const track = (event: PointerEvent<HTMLElement>) => {
    if (!drag) return;
    const dx = event.clientX - drag.x0;
    const dy = event.clientY - drag.y0;
    setDrag({ ...drag, dx, dy, moved: drag.moved || Math.abs(dx) > 4 || Math.abs(dy) > 4 });
  };
  /** Where the drag would put the occurrence: whole days sideways (within the view), quarter hours up and down. */
  const target = (d: Drag) => {
    const minutes = snap((d.dy / HOUR_PX) * 60);
    if (d.mode === 'resize') return { days: 0, minutes: 0, length: Math.max(SNAP_MINUTES, lengthOf(d.occurrence) + minutes) };
    const from = days.indexOf(d.occurrence.occurrenceDay);
    const shift = Math.max(-from, Math.min(days.length - 1 - from, Math.round(d.dx / d.columnWidth)));
    return { days: shift, minutes, length: lengthOf(d.occurrence) };
  };
  const finish = () => {
    if (!drag) return;
    setDrag(null);
    if (!drag.moved) return;
    justDragged.current = true;
    window.setTimeout(() => (justDragged.current = false), 0);
    const t = target(drag);
    if (t.days === 0 && t.minutes === 0 && t.length === lengthOf(drag.occurrence)) return;
    const start = shiftWallClock(drag.occurrence.start, timeZone, t.days, t.minutes);
    onChange(drag.occurrence, start, new Date(new Date(start).getTime() + t.length * 60_000).toISOString());
  };
  /** The keyboard's move and resize: Alt+Up/Down a quarter hour, Alt+Left/Right a day, Alt+Shift+Up/Down the length. */
  const keys = (event: KeyboardEvent<HTMLButtonElement>, o: AppointmentOccurrence) => {
    if (!event.altKey) return;
    const up = event.key === 'ArrowUp';
    const down = event.key === 'ArrowDown';
    const side = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (!up && !down && !side) return;
    event.preventDefault();
    if (event.shiftKey) {
      if (side) return;
      const length = Math.max(SNAP_MINUTES, lengthOf(o) + (up ? -SNAP_MINUTES : SNAP_MINUTES));
      if (length !== lengthOf(o)) onChange(o, o.start, new Date(new Date(o.start).getTime() + length * 60_000).toISOString());
      return;
    }
    const start = shiftWallClock(o.start, timeZone, side, side ? 0 : up ? -SNAP_MINUTES : SNAP_MINUTES);
    onChange(o, start, new Date(new Date(start).getTime() + lengthOf(o) * 60_000).toISOString());
  };

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
                {shading(d).map((span) => (
                  <li
                    key={`${span.kind}-${span.start}`}
                    className={`tw-calendar__shade tw-calendar__shade--${span.kind}`}
                    data-shade={span.kind}
                    style={{ top: (span.start / 60) * HOUR_PX, height: ((span.end - span.start) / 60) * HOUR_PX }}
                    aria-hidden="true"
                    title={span.label}
                  >
                    {span.kind === 'blocked' ? <span>{span.label}</span> : null}
                  </li>
                ))}
                {hours.map((h) => (
                  // Empty hours book with a click; the keyboard books with the Book appointment button.
                  <li key={h} className="tw-calendar__slot" style={{ top: h * HOUR_PX, height: HOUR_PX }} aria-hidden="true" onClick={() => onSlot(d, `${String(h).padStart(2, '0')}:00`)} />
                ))}
                {list.map((o) => {
                  const key = `${o.appointmentId}-${o.occurrenceDay}`;
                  const dragging = drag?.key === key && drag.moved ? target(drag) : null;
                  const top = (minutesOfDay(o.start, timeZone) / 60) * HOUR_PX;
                  const length = dragging ? dragging.length : lengthOf(o);
                  const height = Math.max(20, (length / 60) * HOUR_PX);
                  const p = placed.get(o)!;
                  const transform = dragging ? `translate(${dragging.days * (drag!.columnWidth)}px, ${(dragging.minutes / 60) * HOUR_PX}px)` : undefined;
                  return (
                    <li
                      key={key}
                      className={`tw-calendar__event-item${dragging ? ' tw-calendar__event-item--dragging' : ''}`}
                      style={{ top, height, left: `${(p.column / p.columns) * 100}%`, width: `${100 / p.columns}%`, transform }}
                    >
                      <button
                        type="button"
                        className="tw-calendar__event"
                        style={{ borderLeftColor: o.color }}
                        aria-label={occurrenceLabel(o, timeZone)}
                        aria-describedby="tw-calendar-legend"
                        aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight Alt+Shift+ArrowUp Alt+Shift+ArrowDown"
                        onPointerDown={(e) => begin(e, o, 'move')}
                        onPointerMove={track}
                        onPointerUp={finish}
                        onPointerCancel={() => setDrag(null)}
                        onKeyDown={(e) => keys(e, o)}
                        onClick={() => (justDragged.current ? undefined : onOpen(o))}
                      >
                        <strong>{o.patientName}</strong>
                        <span>
                          {timeLabel(o.start, timeZone)} · {o.appointmentTypeName}
                          {o.arrivalStatus && o.arrivalStatus !== 'scheduled' ? ` · ${ARRIVAL_STATUS_LABELS[o.arrivalStatus]}` : ''}
                        </span>
                      </button>
                      <span className="tw-calendar__resize" data-testid="resize" aria-hidden="true" onPointerDown={(e) => begin(e, o, 'resize')} onPointerMove={track} onPointerUp={finish} onPointerCancel={() => setDrag(null)} />
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
