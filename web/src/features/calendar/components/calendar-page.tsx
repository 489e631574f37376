import { useState } from 'react';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { shadedSpans, type ProviderTime } from '../../../../../shared/calendar/working-hours.js';
import { Button } from '../../../components/ui/button.js';
import { Page } from '../../../components/ui/page.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { dayParts, todayIn } from '../calendar-dates.js';
import { Agenda } from './agenda-list.js';
import { HoursDialog, ScopeDialog } from './appointment-changes.js';
import { AppointmentView } from './appointment-view.js';
import { BookingDialog, type BookingTarget } from './booking-dialog.js';
import { CalendarToolbar } from './calendar-toolbar.js';
import { MonthGrid } from './month-grid.js';
import { occurrencesByDay } from './occurrence-text.js';
import { TimeGrid } from './time-grid.js';
import { useAppointmentMoves } from './use-appointment-moves.js';
import { useCalendarView } from './use-calendar-view.js';
import '../calendar.css';

/** Before a provider's settings load, nothing is shaded as theirs. */
const NO_HOURS: ProviderTime = { workingHours: [], blockedTimes: [], daysOff: [] };

/** Spec shell §2.1: /calendar?date=YYYY-MM-DD&view=day|week|work_week|month|agenda&selectedDate=YYYY-MM-DD. */
export function CalendarPage() {
  const { settings, currentUserId, timeZone, view, date, days, selectedDate, providerFilter, providers, appointments, shadedSettings, shadedWhose, go } =
    useCalendarView();
  const [booking, setBooking] = useState<BookingTarget | null>(null);
  const [viewing, setViewing] = useState<AppointmentOccurrence | null>(null);
  const moves = useAppointmentMoves(timeZone);
  const { pending } = moves;

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
  const byDay = occurrencesByDay(appointments.data?.occurrences ?? []);
  // An appointment opens on its view; Edit there opens the booking form.
  const open = (o: AppointmentOccurrence) => setViewing(o);
  const bookAt = (day: string, time = '09:00') => setBooking({ kind: 'new', day, time });

  return (
    <Page
      title="Calendar"
      subtitle={`Times are in the practice's time zone, ${timeZone}.`}
      actions={
        <div className="tw-calendar__actions">
          <Button variant="primary" onPress={() => bookAt(selectedDate ?? date)}>
            Book appointment
          </Button>
        </div>
      }
    >
      <div className="tw-calendar">
        <CalendarToolbar
          view={view}
          date={date}
          days={days}
          today={today}
          fetching={appointments.isFetching}
          providers={providers}
          providerFilter={providerFilter}
          go={go}
        />
        {view !== 'month' && view !== 'agenda' ? (
          <p className="tw-calendar__legend" id="tw-calendar-legend">
            <span className="tw-calendar__legend-off" aria-hidden="true" /> Shaded: outside {shadedWhose} working hours.{' '}
            <span className="tw-calendar__legend-blocked" aria-hidden="true" /> Striped: blocked time. Drag an appointment to move it or its bottom edge to
            change its length; with the keyboard, Alt+arrow keys move it and Alt+Shift+Up or Down change its length.
          </p>
        ) : null}
        {moves.moveError ? (
          <p className="tw-calendar__alert" role="alert">
            {moves.moveError}
          </p>
        ) : null}
        {appointments.isError ? (
          <p className="tw-calendar__alert" role="alert">
            {appointments.error.message}
          </p>
        ) : null}
        {view === 'month' ? (
          <MonthGrid
            days={days}
            month={dayParts(date).month}
            today={today}
            byDay={byDay}
            timeZone={timeZone}
            onOpen={open}
            onDay={(d) => go({ date: d, view: 'day' })}
          />
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
            onChange={(o, start, end) => void moves.requestChange(o, start, end)}
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
          onConfirm={() => moves.afterHours(pending)}
          onClose={moves.dismiss}
        />
      ) : null}
      {pending?.step === 'scope' ? (
        <ScopeDialog occurrence={pending.occurrence} action="change" onChoose={(scope) => void moves.commit(pending, scope)} onClose={moves.dismiss} />
      ) : null}
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
      {booking ? <BookingDialog target={booking} timeZone={timeZone} currentUserId={currentUserId} onClose={() => setBooking(null)} /> : null}
    </Page>
  );
}
