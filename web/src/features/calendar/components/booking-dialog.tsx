import { useEffect, useState } from 'react';
import { Dialog as AriaDialog, FieldError, Heading, Label, Modal, ModalOverlay, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { VISIT_TYPE_LABELS, VISIT_TYPES, type AppointmentInput } from '../../../../../shared/calendar/calendar-schema.js';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { FREQUENCIES, ORDINAL_LABELS, ordinalOf, zonedParts, zonedToInstant, type Frequency } from '../../../../../shared/calendar/recurrence.js';
import { hoursConflict } from '../../../../../shared/calendar/working-hours.js';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Form } from '../../../components/ui/form.js';
import { Select } from '../../../components/ui/select.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError } from '../../../lib/api-error.js';
import { usePatient } from '../../../lib/patients.js';
import { displayUserName, usePracticeUsers } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useAppointmentTypes, useBookingLocations, useCancelAppointment, useSaveAppointment, useUserCalendarSettings } from '../api/calendar-api.js';
import { dayParts, isoDayOf, weekday, WEEKDAY_LONG } from '../calendar-dates.js';
import { HoursDialog, ScopeDialog, type ChangeScope } from './appointment-changes.js';
import { providerDefault } from '../booking-provider.js';

/** What the dialog opens on: a new booking at a day and time, or an occurrence to change. */
export type BookingTarget = { kind: 'new'; day: string; time: string } | { kind: 'edit'; occurrence: AppointmentOccurrence };

interface Values {
  patientId: string | null;
  patientName: string | undefined;
  appointmentTypeId: string | null;
  providerId: string | null;
  visitType: (typeof VISIT_TYPES)[number];
  bookingLocationId: string | null;
  day: string;
  time: string;
  durationMinutes: string;
  frequency: Frequency;
  monthlyMode: 'BYMONTHDAY' | 'BYDAY';
  end: 'NEVER' | 'COUNT' | 'ON';
  count: string;
  until: string;
  notes: string;
}

function initialValues(target: BookingTarget, timeZone: string): Values {
  if (target.kind === 'new') {
    // Chosen once the practice's users and the patient are known (see providerDefault).
    return {
      patientId: null,
      patientName: undefined,
      appointmentTypeId: null,
      providerId: null,
      visitType: 'in_person',
      bookingLocationId: null,
      day: target.day,
      time: target.time,
      durationMinutes: '30',
      frequency: 'Never',
      monthlyMode: 'BYMONTHDAY',
      end: 'NEVER',
      count: '10',
      until: '',
      notes: '',
    };
  }
  const s = target.occurrence.series;
  // The occurrence opened, not the series' first: a change to the whole series moves it by as much.
  const p = zonedParts(new Date(target.occurrence.start), timeZone);
  return {
    patientId: s.patientId,
    patientName: target.occurrence.patientName,
    appointmentTypeId: s.appointmentTypeId,
    providerId: s.providerId,
    visitType: s.visitType,
    bookingLocationId: s.bookingLocationId,
    day: isoDayOf(p),
    time: `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`,
    durationMinutes: String(s.durationMinutes),
    frequency: s.recurrence.frequency,
    monthlyMode: s.recurrence.monthlyMode,
    end: s.recurrence.end,
    count: String(s.recurrence.count),
    until: s.recurrence.until ?? '',
    notes: s.notes,
  };
}

const FREQUENCY_LABELS: Record<Frequency, string> = { Never: 'Never', Daily: 'Daily', Weekly: 'Weekly', Monthly: 'Monthly', Yearly: 'Yearly' };

/** Book, change or cancel an appointment; times are the practice's, said in the dialog. */
export function BookingDialog({
  target,
  timeZone,
  currentUserId,
  onClose,
}: {
  target: BookingTarget;
  timeZone: string;
  currentUserId: string | undefined;
  onClose: () => void;
}) {
  const [values, setValues] = useState<Values>(() => initialValues(target, timeZone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const types = useAppointmentTypes('active');
  const locations = useBookingLocations('active');
  const users = usePracticeUsers();
  const save = useSaveAppointment();
  const cancel = useCancelAppointment();
  const editing = target.kind === 'edit' ? target.occurrence : null;
  const providerSettings = useUserCalendarSettings(values.providerId ?? undefined);
  /** What is being asked before the save or the cancel goes ahead. */
  const [asking, setAsking] = useState<
    | { step: 'hours'; body: AppointmentInput; conflict: { kind: 'off' | 'blocked'; label: string } }
    | { step: 'scope'; body: AppointmentInput }
    | { step: 'cancel-scope' }
    | null
  >(null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const patient = usePatient(editing ? null : values.patientId);
  const [providerChosen, setProviderChosen] = useState(false);
  const practitionerName = patient.data?.practitioner?.name;
  useEffect(() => {
    if (editing || providerChosen || !users.data) return;
    const id = providerDefault(
      users.data.map((u) => ({ ...u, name: displayUserName(u) })),
      practitionerName,
      currentUserId,
    );
    setValues((v) => (v.providerId === id ? v : { ...v, providerId: id }));
  }, [editing, providerChosen, users.data, practitionerName, currentUserId]);

  const providers = (users.data ?? [])
    .filter((u) => u.permissionGroup !== 'no_access' && u.userStatus !== 'deleted')
    .map((u) => ({ id: u.userId, label: displayUserName(u) }));
  const { year, month, day } = dayParts(values.day || '2000-01-01');
  const ordinal = ordinalOf(day, year, month);
  const monthlyOptions = [
    { id: 'BYMONTHDAY', label: `On day ${day}` },
    { id: 'BYDAY', label: `On the ${ORDINAL_LABELS[ordinal].toLowerCase()} ${WEEKDAY_LONG[weekday(values.day || '2000-01-01')]}` },
  ];

  function input(): AppointmentInput | null {
    const [hour, minute] = values.time.split(':').map(Number);
    if (!values.day || Number.isNaN(hour)) {
      setErrors({ start: 'Start is required' });
      return null;
    }
    const start = zonedToInstant({ year, month, day, hour, minute }, timeZone).toISOString();
    return {
      patientId: values.patientId ?? '',
      appointmentTypeId: values.appointmentTypeId ?? '',
      providerId: values.providerId ?? '',
      visitType: values.visitType,
      bookingLocationId: values.bookingLocationId,
      start,
      durationMinutes: Number(values.durationMinutes),
      recurrence: {
        frequency: values.frequency,
        monthlyMode: values.monthlyMode,
        ordinal,
        end: values.end,
        count: Number(values.count),
        until: values.end === 'ON' ? values.until || null : null,
      },
      notes: values.notes,
      ...(editing ? { updatedAt: editing.series.updatedAt } : {}),
    };
  }

  function submit() {
    const body = input();
    if (!body) return;
    setMessage(null);
    const hours = providerSettings.data;
    const end = new Date(new Date(body.start).getTime() + Number(body.durationMinutes) * 60_000).toISOString();
    const conflict = hours && body.durationMinutes ? hoursConflict(body.start, end, timeZone, hours) : null;
    if (conflict) setAsking({ step: 'hours', body, conflict });
    else afterHours(body);
  }

  function afterHours(body: AppointmentInput) {
    if (editing?.recurring) setAsking({ step: 'scope', body });
    else void store(body, 'series');
  }

  async function store(body: AppointmentInput, scope: ChangeScope) {
    setAsking(null);
    // The whole series moves by as much as the opened occurrence did; one occurrence takes the new time itself.
    const start =
      editing && scope === 'series'
        ? new Date(new Date(editing.series.start).getTime() + new Date(body.start).getTime() - new Date(editing.start).getTime()).toISOString()
        : body.start;
    try {
      await save.mutateAsync({
        appointmentId: editing?.appointmentId ?? null,
        input: { ...body, start, ...(scope === 'one' ? { recurrence: { frequency: 'Never' } } : {}) },
        occurrence: editing && scope === 'one' ? editing.occurrenceDay : undefined,
      });
      showToast(editing ? 'Appointment saved' : 'Appointment booked', { tone: 'success' });
      onClose();
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k.replace('recurrence.', ''), v])));
      // A field's own words, without the API's "path: " prefix.
      setMessage(Object.values(fieldErrors)[0] ?? (error instanceof Error ? error.message : 'The appointment was not saved'));
    }
  }

  async function remove(scope: ChangeScope) {
    if (!editing) return;
    setAsking(null);
    try {
      await cancel.mutateAsync({ appointmentId: editing.appointmentId, occurrence: scope === 'one' ? editing.occurrenceDay : undefined });
      showToast(editing.recurring && scope === 'series' ? 'Appointment series cancelled' : 'Appointment cancelled', { tone: 'success' });
      onClose();
    } catch (error) {
      setMessage(error instanceof Error ? error.message : 'The appointment was not cancelled');
    }
  }

  return (
    <>
      <ModalOverlay isOpen onOpenChange={(open) => (open ? undefined : onClose())} isDismissable className="tw-modal-overlay">
        <Modal className="tw-modal" style={{ width: MODAL_WIDTH.md }}>
          <AriaDialog className="tw-dialog tw-booking">
            <Heading slot="title" className="tw-dialog__title">
              {editing ? 'Edit appointment' : 'Book appointment'}
            </Heading>
            <Form
              validationErrors={errors}
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <div className="tw-dialog__body tw-booking__grid">
                {message ? (
                  <p className="tw-calendar__alert tw-booking__wide" role="alert">
                    {message}
                  </p>
                ) : null}
                <PatientPicker
                  className="tw-booking__wide"
                  value={values.patientId}
                  valueLabel={values.patientName}
                  onChange={(id, name) => setValues((v) => ({ ...v, patientId: id, patientName: name }))}
                />
                <Select
                  label="Appointment type"
                  name="appointmentTypeId"
                  isRequired
                  options={(types.data ?? []).map((t) => ({ id: t.ident, label: t.name }))}
                  value={values.appointmentTypeId}
                  onChange={(id) => {
                    const type = types.data?.find((t) => t.ident === id);
                    setValues((v) => ({ ...v, appointmentTypeId: id, ...(type && !editing ? { durationMinutes: String(type.durationMinutes) } : {}) }));
                  }}
                />
                <Select
                  label="Provider"
                  name="providerId"
                  isRequired
                  options={providers}
                  value={values.providerId}
                  onChange={(id) => {
                    setProviderChosen(true);
                    set('providerId', id);
                  }}
                />
                <Select
                  label="Visit type"
                  name="visitType"
                  options={VISIT_TYPES.map((v) => ({ id: v, label: VISIT_TYPE_LABELS[v] }))}
                  value={values.visitType}
                  onChange={(v) => set('visitType', (v ?? 'in_person') as Values['visitType'])}
                />
                <Select
                  label="Booking location"
                  name="bookingLocationId"
                  isRequired={values.visitType === 'in_person'}
                  options={(locations.data ?? []).map((l) => ({ id: l.ident, label: l.name }))}
                  value={values.bookingLocationId}
                  onChange={(id) => set('bookingLocationId', id)}
                />
                <TextField label="Date" name="start" type="date" isRequired value={values.day} onChange={(v) => set('day', v)} />
                <TextField
                  label="Time"
                  name="time"
                  type="time"
                  isRequired
                  value={values.time}
                  onChange={(v) => set('time', v)}
                  description={`Practice time (${timeZone})`}
                />
                <TextField
                  label="Length (minutes)"
                  name="durationMinutes"
                  inputMode="numeric"
                  isRequired
                  value={values.durationMinutes}
                  onChange={(v) => set('durationMinutes', v.replace(/\D/g, ''))}
                />
                <Select
                  label="Repeats"
                  name="frequency"
                  options={FREQUENCIES.map((f) => ({ id: f, label: FREQUENCY_LABELS[f] }))}
                  value={values.frequency}
                  onChange={(f) => set('frequency', (f ?? 'Never') as Frequency)}
                />
                {values.frequency === 'Monthly' ? (
                  <Select
                    label="Monthly on"
                    name="monthlyMode"
                    options={monthlyOptions}
                    value={values.monthlyMode}
                    onChange={(m) => set('monthlyMode', (m ?? 'BYMONTHDAY') as Values['monthlyMode'])}
                  />
                ) : null}
                {values.frequency !== 'Never' ? (
                  <>
                    <Select
                      label="Ends"
                      name="end"
                      options={[
                        { id: 'NEVER', label: 'Never' },
                        { id: 'COUNT', label: 'After a number of times' },
                        { id: 'ON', label: 'On a date' },
                      ]}
                      value={values.end}
                      onChange={(e) => set('end', (e ?? 'NEVER') as Values['end'])}
                    />
                    {values.end === 'COUNT' ? (
                      <TextField
                        label="Occurrences"
                        name="count"
                        inputMode="numeric"
                        value={values.count}
                        onChange={(v) => set('count', v.replace(/\D/g, ''))}
                      />
                    ) : null}
                    {values.end === 'ON' ? (
                      <TextField label="End date" name="until" type="date" value={values.until} onChange={(v) => set('until', v)} />
                    ) : null}
                  </>
                ) : null}
                <AriaTextField className="tw-field tw-booking__wide" name="notes" value={values.notes} onChange={(v) => set('notes', v)}>
                  <Label className="tw-field__label">Notes</Label>
                  <TextArea className="tw-field__input" rows={3} />
                  <FieldError className="tw-field__error" />
                </AriaTextField>
              </div>
              <div className="tw-dialog__actions">
                {editing ? (
                  <Button
                    variant="danger"
                    onPress={() => (editing.recurring ? setAsking({ step: 'cancel-scope' }) : void remove('series'))}
                    isPending={cancel.isPending}
                  >
                    Cancel appointment
                  </Button>
                ) : null}
                <Button variant="secondary" onPress={onClose}>
                  Close
                </Button>
                <Button variant="primary" type="submit" isPending={save.isPending}>
                  {editing ? 'Save' : 'Book'}
                </Button>
              </div>
            </Form>
          </AriaDialog>
        </Modal>
      </ModalOverlay>
      {asking?.step === 'hours' ? (
        <HoursDialog
          conflict={asking.conflict}
          providerName={providers.find((p) => p.id === values.providerId)?.label ?? 'The provider'}
          start={asking.body.start}
          end={new Date(new Date(asking.body.start).getTime() + Number(asking.body.durationMinutes) * 60_000).toISOString()}
          timeZone={timeZone}
          confirmLabel="Book anyway"
          onConfirm={() => afterHours(asking.body)}
          onClose={() => setAsking(null)}
        />
      ) : null}
      {asking?.step === 'scope' && editing ? (
        <ScopeDialog occurrence={editing} action="change" onChoose={(scope) => void store(asking.body, scope)} onClose={() => setAsking(null)} />
      ) : null}
      {asking?.step === 'cancel-scope' && editing ? (
        <ScopeDialog occurrence={editing} action="cancel" onChoose={(scope) => void remove(scope)} onClose={() => setAsking(null)} />
      ) : null}
    </>
  );
}
