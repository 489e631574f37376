import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import {
  CALENDAR_VIEWS,
  REMINDER_LEAD_HOURS,
  type AppointmentType,
  type BookingLocation,
  type BlockedTime,
  type DayOff,
  type CalendarView,
  type WorkingDay,
} from '../../../../../shared/calendar/calendar-schema.js';
import { can } from '../../../../../shared/permissions/permissions.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { Page } from '../../../components/ui/page.js';
import { Select } from '../../../components/ui/select.js';
import { SettingsCard } from '../../../components/ui/settings-card.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { Switch } from '../../../components/ui/switch.js';
import { TextField } from '../../../components/ui/text-field.js';
import { runtimeConfig } from '../../../lib/runtime-config.js';
import { actorOf } from '../../../lib/permissions.js';
import { useCurrentUser } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useAppointmentTypes, useBookingLocations, usePracticeCalendarSettings, useUserCalendarSettings } from '../api/calendar-api.js';
import { createCalendarFeed, fetchCalendarFeed, revokeCalendarFeed } from '../api/calendar-links-api.js';
import { WEEKDAY_LONG } from '../calendar-dates.js';
import { CatalogCard, type CatalogDraft } from './catalog-card.js';
import { GoogleLinkCard } from './google-link-card.js';
import { useSettingsChange } from './use-settings-change.js';

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', work_week: 'Work week', month: 'Month', agenda: 'Agenda' };
/** Colours with at least 3:1 against white as the 4 px edge of an appointment. */
const COLORS = [
  { id: '#005377', label: 'Blue' },
  { id: '#1d7a4f', label: 'Green' },
  { id: '#8a5a00', label: 'Amber' },
  { id: '#b42318', label: 'Red' },
  { id: '#6941c6', label: 'Purple' },
];
const TIME_ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu'];

/** /new-settings/calendar: the practice's time zone, appointment types, booking locations and my calendar. */
export function CalendarSettings({ nav }: { nav: ReactNode }) {
  const me = useCurrentUser().data;
  const isAdmin = can(actorOf(me), 'practice.settings.change');
  return (
    <Page title="Settings" nav={nav}>
      <TimeZoneCard isAdmin={isAdmin} />
      <ReminderTextsCard isAdmin={isAdmin} />
      <AppointmentTypesCard isAdmin={isAdmin} />
      <BookingLocationsCard isAdmin={isAdmin} />
      {me ? <MyCalendarCard userId={me.userId} /> : null}
      {me ? <GoogleLinkCard userId={me.userId} /> : null}
      {me ? <CalendarFeedCard userId={me.userId} /> : null}
    </Page>
  );
}

function TimeZoneCard({ isAdmin }: { isAdmin: boolean }) {
  const settings = usePracticeCalendarSettings();
  const { run, errors, isPending } = useSettingsChange();
  const [zone, setZone] = useState<string | null>(null);
  const [names, setNames] = useState<boolean | null>(null);
  const [googleNames, setGoogleNames] = useState<boolean | null>(null);
  const current = zone ?? settings.data?.timeZone ?? null;
  const showsNames = names ?? settings.data?.feedShowsNames ?? false;
  const googleShowsNames = googleNames ?? settings.data?.googleShowsNames ?? false;
  const options = [...new Set([...TIME_ZONES, ...(settings.data ? [settings.data.timeZone] : [])])].map((z) => ({ id: z, label: z }));
  return (
    <SettingsCard title="Practice time zone">
      <Form
        validationErrors={errors}
        className="tw-settings__form"
        onSubmit={(e) => (
          e.preventDefault(),
          void run({ method: 'PUT', path: '/settings', body: { timeZone: current, feedShowsNames: showsNames, googleShowsNames } }, 'Time zone saved')
        )}
      >
        <p className="tw-settings__muted">Every appointment keeps its time of day in this zone, and the calendar shows its times in it.</p>
        <Select label="Time zone" name="timeZone" options={options} value={current} onChange={setZone} isDisabled={!isAdmin} />
        <Switch label="Calendar feeds show patient names" isSelected={showsNames} onChange={setNames} isDisabled={!isAdmin} />
        <p className="tw-settings__muted">
          On: each provider's calendar feed link (the phone or desktop calendar that subscribes to it) receives the patient's full name with every appointment.
          Off: only the appointment's type and place.
        </p>
        <Switch label="Google Calendar events show patient names" isSelected={googleShowsNames} onChange={setGoogleNames} isDisabled={!isAdmin} />
        <p className="tw-settings__muted">
          On: the patient's full name is written into each linked provider's Google account, where Google keeps it. Off: only the appointment's type and place.
          Turning either on is recorded in the access history.
        </p>
        {isAdmin ? (
          <div className="tw-settings__actions">
            <Button variant="primary" type="submit" isPending={isPending}>
              Save time zone
            </Button>
          </div>
        ) : null}
      </Form>
    </SettingsCard>
  );
}

const OFF = 'off';
const LEAD_OPTIONS = [
  { id: OFF, label: 'Off' },
  ...REMINDER_LEAD_HOURS.map((h) => ({
    id: String(h),
    label: h === 1 ? '1 hour before' : h % 24 === 0 ? `${h / 24 === 1 ? '1 day' : `${h / 24} days`} before` : `${h} hours before`,
  })),
];

/** The practice's appointment reminder texts: how long before an appointment the patient is texted, or off. */
function ReminderTextsCard({ isAdmin }: { isAdmin: boolean }) {
  const settings = usePracticeCalendarSettings();
  const { run, errors, isPending } = useSettingsChange();
  const [lead, setLead] = useState<string | null>(null);
  const stored = settings.data ? (settings.data.reminderLeadHours ? String(settings.data.reminderLeadHours) : OFF) : null;
  const current = lead ?? stored;
  const save = () =>
    void run(
      {
        method: 'PUT',
        path: '/settings',
        body: { timeZone: settings.data?.timeZone, reminderLeadHours: current === OFF || current === null ? null : Number(current) },
      },
      current === OFF ? 'Reminder texts turned off' : 'Reminder texts saved',
    );
  return (
    <SettingsCard title="Appointment reminder texts">
      <Form validationErrors={errors} className="tw-settings__form" onSubmit={(e) => (e.preventDefault(), save())}>
        <p className="tw-settings__muted">
          A patient with a mobile number who has not opted out gets one text from the practice number before each appointment: its date, time and place, never
          why they are coming.
        </p>
        <Select
          label="Send the reminder"
          name="reminderLeadHours"
          options={LEAD_OPTIONS}
          value={current}
          onChange={setLead}
          isDisabled={!isAdmin || !settings.data}
        />
        {isAdmin ? (
          <div className="tw-settings__actions">
            <Button variant="primary" type="submit" isPending={isPending} isDisabled={!settings.data}>
              Save reminder texts
            </Button>
          </div>
        ) : null}
      </Form>
    </SettingsCard>
  );
}

interface TypeDraft extends CatalogDraft {
  durationMinutes: string;
  color: string;
}

function AppointmentTypesCard({ isAdmin }: { isAdmin: boolean }) {
  return (
    <CatalogCard<AppointmentType, TypeDraft>
      isAdmin={isAdmin}
      list={useAppointmentTypes('all')}
      path="/appointment-types"
      nouns={{ one: 'appointment type', many: 'appointment types' }}
      newDraft={() => ({ ident: null, name: '', durationMinutes: '30', color: COLORS[0].id, active: true })}
      toDraft={(t) => ({ ident: t.ident, name: t.name, durationMinutes: String(t.durationMinutes), color: t.color, active: t.status === 'active' })}
      toBody={(d) => ({ durationMinutes: Number(d.durationMinutes), color: d.color })}
      renderFields={(draft, setDraft) => (
        <>
          <TextField
            label="Length (minutes)"
            name="durationMinutes"
            inputMode="numeric"
            isRequired
            value={draft.durationMinutes}
            onChange={(v) => setDraft({ ...draft, durationMinutes: v.replace(/\D/g, '') })}
          />
          <Select label="Colour" name="color" options={COLORS} value={draft.color} onChange={(color) => setDraft({ ...draft, color: color ?? COLORS[0].id })} />
        </>
      )}
      columns={['Length']}
      renderName={(t) => (
        <>
          <span className="tw-calendar__swatch tw-calendar__swatch--inline" style={{ background: t.color }} aria-hidden="true" /> {t.name}
        </>
      )}
      renderCells={(t) => <td>{t.durationMinutes} minutes</td>}
      removeText={(t) => <>{t.name} can no longer be booked. Appointments already booked with it stay on the calendar.</>}
    />
  );
}

interface LocationDraft extends CatalogDraft {
  address: string;
}

function BookingLocationsCard({ isAdmin }: { isAdmin: boolean }) {
  return (
    <CatalogCard<BookingLocation, LocationDraft>
      isAdmin={isAdmin}
      list={useBookingLocations('all')}
      path="/booking-locations"
      nouns={{ one: 'booking location', many: 'booking locations' }}
      newDraft={() => ({ ident: null, name: '', address: '', active: true })}
      toDraft={(l) => ({ ident: l.ident, name: l.name, address: l.address, active: l.status === 'active' })}
      toBody={(d) => ({ address: d.address })}
      renderFields={(draft, setDraft) => (
        <TextField label="Address" name="address" value={draft.address} onChange={(address) => setDraft({ ...draft, address })} />
      )}
      columns={['Address']}
      renderName={(l) => l.name}
      renderCells={(l) => <td>{l.address}</td>}
      removeText={(l) => <>{l.name} can no longer be booked. Appointments already booked there stay on the calendar.</>}
    />
  );
}

function MyCalendarCard({ userId }: { userId: string }) {
  const settings = useUserCalendarSettings(userId);
  if (settings.isPending) return <Spinner label="Loading your calendar settings" />;
  if (settings.isError) {
    return (
      <p className="tw-empty" role="alert">
        {settings.error.message}
      </p>
    );
  }
  return (
    <MyCalendarForm
      userId={userId}
      view={settings.data.defaultView}
      hours={settings.data.workingHours}
      blocked={settings.data.blockedTimes ?? []}
      away={settings.data.daysOff ?? []}
    />
  );
}

/** A new entry starts on today's date where the user is; they pick the real days. */
const todayIso = () => new Date().toLocaleDateString('en-CA');

function MyCalendarForm({
  userId,
  view,
  hours,
  blocked,
  away,
}: {
  userId: string;
  view: CalendarView;
  hours: WorkingDay[];
  blocked: BlockedTime[];
  away: DayOff[];
}) {
  const [blocks, setBlocks] = useState<BlockedTime[]>(blocked);
  const setBlock = (index: number, change: Partial<BlockedTime>) => setBlocks((all) => all.map((b, i) => (i === index ? { ...b, ...change } : b)));
  const [daysOff, setDaysOff] = useState<DayOff[]>(away);
  const setDayOff = (index: number, change: Partial<DayOff>) => setDaysOff((all) => all.map((d, i) => (i === index ? { ...d, ...change } : d)));
  const { run, errors, isPending } = useSettingsChange();
  const [defaultView, setDefaultView] = useState<CalendarView>(view);
  const [days, setDays] = useState(() =>
    WEEKDAY_LONG.map((_, weekday) => {
      const day = hours.find((h) => h.weekday === weekday);
      return { weekday, works: Boolean(day), start: day?.start ?? '08:00', end: day?.end ?? '17:00' };
    }),
  );
  const setDay = (weekday: number, change: Partial<(typeof days)[number]>) =>
    setDays((all) => all.map((d) => (d.weekday === weekday ? { ...d, ...change } : d)));
  const body = {
    defaultView,
    workingHours: days.filter((d) => d.works).map(({ weekday, start, end }) => ({ weekday, start, end })),
    blockedTimes: blocks,
    daysOff,
  };
  return (
    <SettingsCard title="My calendar">
      <Form
        validationErrors={errors}
        className="tw-settings__form"
        onSubmit={(e) => (
          e.preventDefault(),
          void run({ method: 'PUT', path: `/calendar-settings/users/${encodeURIComponent(userId)}`, body }, 'Calendar settings saved')
        )}
      >
        <Select
          label="Calendar opens on"
          name="defaultView"
          options={CALENDAR_VIEWS.map((v) => ({ id: v, label: VIEW_LABELS[v] }))}
          value={defaultView}
          onChange={(v) => setDefaultView((v ?? 'week') as CalendarView)}
        />
        <fieldset className="tw-calendar__hours-set">
          <legend className="tw-field__label">Working hours</legend>
          {days.map((d) => (
            <div key={d.weekday} className="tw-calendar__hours-row">
              <Switch label={WEEKDAY_LONG[d.weekday]} isSelected={d.works} onChange={(works) => setDay(d.weekday, { works })} />
              {d.works ? (
                <>
                  <TextField label={`${WEEKDAY_LONG[d.weekday]} from`} type="time" value={d.start} onChange={(start) => setDay(d.weekday, { start })} />
                  <TextField label={`${WEEKDAY_LONG[d.weekday]} to`} type="time" value={d.end} onChange={(end) => setDay(d.weekday, { end })} />
                </>
              ) : null}
            </div>
          ))}
        </fieldset>
        <fieldset className="tw-calendar__hours-set">
          <legend className="tw-field__label">Blocked time</legend>
          <p className="tw-calendar__legend">Kept free every week; the calendar stripes it and asks before booking into it.</p>
          {blocks.map((b, i) => (
            <div key={i} className="tw-calendar__hours-row">
              <Select
                label={`Blocked time ${i + 1} day`}
                options={WEEKDAY_LONG.map((w, weekday) => ({ id: String(weekday), label: w }))}
                value={String(b.weekday)}
                onChange={(v) => setBlock(i, { weekday: Number(v ?? b.weekday) })}
              />
              <TextField label={`Blocked time ${i + 1} from`} type="time" value={b.start} onChange={(start) => setBlock(i, { start })} />
              <TextField label={`Blocked time ${i + 1} to`} type="time" value={b.end} onChange={(end) => setBlock(i, { end })} />
              <TextField label={`Blocked time ${i + 1} label`} value={b.label} onChange={(label) => setBlock(i, { label })} />
              <Button variant="secondary" aria-label={`Remove blocked time ${i + 1}`} onPress={() => setBlocks((all) => all.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
          ))}
          <Button variant="secondary" onPress={() => setBlocks((all) => [...all, { weekday: 1, start: '12:00', end: '13:00', label: 'Lunch' }])}>
            Add blocked time
          </Button>
        </fieldset>
        <fieldset className="tw-calendar__hours-set">
          <legend className="tw-field__label">Days off</legend>
          <p className="tw-calendar__legend">Whole days away, first to last day: the calendar stripes them and asks before booking into them.</p>
          {daysOff.map((d, i) => (
            <div key={i} className="tw-calendar__hours-row">
              <TextField
                label={`Days off ${i + 1} from`}
                type="date"
                value={d.from}
                onChange={(from) => setDayOff(i, { from, to: d.to < from ? from : d.to })}
              />
              <TextField label={`Days off ${i + 1} to`} type="date" value={d.to} onChange={(to) => setDayOff(i, { to })} />
              <TextField label={`Days off ${i + 1} label`} value={d.label} onChange={(label) => setDayOff(i, { label })} />
              <Button variant="secondary" aria-label={`Remove days off ${i + 1}`} onPress={() => setDaysOff((all) => all.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
          ))}
          <Button variant="secondary" onPress={() => setDaysOff((all) => [...all, { from: todayIso(), to: todayIso(), label: 'Vacation' }])}>
            Add days off
          </Button>
        </fieldset>
        {Object.values(errors)[0] ? (
          <p className="tw-field__error" role="alert">
            {Object.values(errors)[0]}
          </p>
        ) : null}
        <div className="tw-settings__actions">
          <Button variant="primary" type="submit" isPending={isPending}>
            Save my calendar
          </Button>
        </div>
      </Form>
    </SettingsCard>
  );
}

/** The signed-in user's ICS feed: made here (its URL shown once, to copy into a phone's calendar) and revoked here. */
function CalendarFeedCard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['calendar', 'feed', userId], queryFn: ({ signal }) => fetchCalendarFeed(userId, signal) });
  const [url, setUrl] = useState<string | null>(null);
  const [revoking, setRevoking] = useState(false);
  const change = useMutation({
    mutationFn: (method: 'POST' | 'DELETE') => (method === 'POST' ? createCalendarFeed(userId) : revokeCalendarFeed(userId)),
    onSuccess: (next) => {
      queryClient.setQueryData(['calendar', 'feed', userId], next);
      setUrl(next.path ? new URL(`${runtimeConfig().apiUrl.replace(/\/$/, '')}${next.path}`, window.location.href).href : null);
    },
    onError: (error) => showToast(error instanceof Error ? error.message : 'Not saved', { tone: 'error' }),
  });
  const active = status.data?.active ?? false;
  return (
    <SettingsCard title="Calendar feed">
      <div className="tw-settings__form">
        <p className="tw-settings__muted">
          A private link your phone's calendar subscribes to, showing your appointments from two weeks back to 90 days ahead. Anyone with the link sees them:
          revoke it if it gets out.
        </p>
        {status.isPending ? <Spinner label="Loading your calendar feed" /> : null}
        {url ? (
          <>
            <TextField label="Feed link (shown once: copy it now)" value={url} isReadOnly />
            <div className="tw-settings__actions">
              <Button onPress={() => void navigator.clipboard?.writeText(url).then(() => showToast('Feed link copied', { tone: 'success' }))}>Copy link</Button>
            </div>
          </>
        ) : active && status.data?.createdAt ? (
          <p role="status">Your feed link is on since {new Date(status.data.createdAt).toLocaleDateString('en-US')}.</p>
        ) : status.data ? (
          <p role="status">You have no feed link.</p>
        ) : null}
        <div className="tw-settings__actions">
          {active ? (
            <Button variant="danger" onPress={() => setRevoking(true)}>
              Revoke feed link
            </Button>
          ) : null}
          <Button variant="primary" onPress={() => change.mutate('POST')} isPending={change.isPending}>
            {active ? 'Make a new feed link' : 'Create feed link'}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        isOpen={revoking}
        onOpenChange={setRevoking}
        title="Revoke your calendar feed?"
        confirmLabel="Revoke"
        tone="danger"
        isPending={change.isPending}
        onConfirm={() => change.mutate('DELETE', { onSettled: () => setRevoking(false) })}
      >
        The link stops working at once; calendars subscribed to it stop updating.
      </ConfirmDialog>
    </SettingsCard>
  );
}
