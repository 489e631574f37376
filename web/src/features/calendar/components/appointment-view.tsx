import { useState } from 'react';
import { Dialog as AriaDialog, Heading, Label, Modal, ModalOverlay, Radio, RadioGroup } from 'react-aria-components';
import { ARRIVAL_STATUS_LABELS, ARRIVAL_STATUSES, VISIT_TYPE_LABELS, type ArrivalStatus } from '../../../../../shared/calendar/calendar-schema.js';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { Link } from '../../../components/ui/link.js';
import { paths } from '../../../lib/paths.js';
import { useSendReminder, useSetArrival } from '../api/calendar-api.js';
import { dateLabel, timeLabel } from '../calendar-dates.js';

/**
 * An appointment opened from the calendar: what, when, with whom, a link to the patient's chart,
 * where the patient is today (arrival status, arrow keys choose) and its reminder text sent now.
 * Edit opens the booking form on the same occurrence, as it stands after any arrival change here.
 */
export function AppointmentView({
  occurrence,
  timeZone,
  onEdit,
  onClose,
}: {
  occurrence: AppointmentOccurrence;
  timeZone: string;
  onEdit: (o: AppointmentOccurrence) => void;
  onClose: () => void;
}) {
  const [current, setCurrent] = useState(occurrence);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const arrival = useSetArrival();
  const reminder = useSendReminder();
  const o = current;

  async function choose(status: ArrivalStatus) {
    const before = o.arrivalStatus;
    setCurrent((c) => ({ ...c, arrivalStatus: status }));
    setMessage(null);
    try {
      const saved = await arrival.mutateAsync({ appointmentId: o.appointmentId, occurrenceDay: o.occurrenceDay, status });
      setCurrent((c) => ({ ...c, arrivalStatus: saved.arrivalStatus, series: { ...c.series, updatedAt: saved.updatedAt } }));
    } catch (error) {
      setCurrent((c) => ({ ...c, arrivalStatus: before }));
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The arrival status was not saved' });
    }
  }

  async function send() {
    setMessage(null);
    try {
      const sent = await reminder.mutateAsync({ appointmentId: o.appointmentId, occurrenceDay: o.occurrenceDay });
      setMessage({ tone: 'ok', text: `Reminder sent to the mobile number ending in ${sent.toLastFour}.` });
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The reminder was not sent' });
    }
  }

  const where = o.visitType === 'virtual' ? VISIT_TYPE_LABELS.virtual : (o.bookingLocationName ?? VISIT_TYPE_LABELS.in_person);
  return (
    <ModalOverlay isOpen onOpenChange={(open) => (open ? undefined : onClose())} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.md }}>
        <AriaDialog className="tw-dialog tw-appointment-view">
          <Heading slot="title" className="tw-dialog__title">
            Appointment
          </Heading>
          <div className="tw-dialog__body">
            <dl className="tw-appointment-view__facts">
              <div>
                <dt>Patient</dt>
                <dd>
                  <Link href={paths.patient(o.patientId)} aria-label={`Open ${o.patientName}'s chart`}>
                    {o.patientName}
                  </Link>
                </dd>
              </div>
              <div>
                <dt>When</dt>
                <dd>
                  {dateLabel(o.occurrenceDay)}, {timeLabel(o.start, timeZone)} – {timeLabel(o.end, timeZone)}
                  {o.recurring ? ' (repeats)' : ''}
                </dd>
              </div>
              <div>
                <dt>Type</dt>
                <dd>{o.appointmentTypeName}</dd>
              </div>
              <div>
                <dt>Provider</dt>
                <dd>{o.providerName}</dd>
              </div>
              <div>
                <dt>Where</dt>
                <dd>{where}</dd>
              </div>
              {o.series.notes ? (
                <div>
                  <dt>Notes</dt>
                  <dd className="tw-appointment-view__notes">{o.series.notes}</dd>
                </div>
              ) : null}
            </dl>
            <RadioGroup
              className="tw-appointment-view__arrival"
              orientation="horizontal"
              value={o.arrivalStatus}
              onChange={(v) => void choose(v as ArrivalStatus)}
              aria-describedby="tw-arrival-hint"
            >
              <Label className="tw-field__label">Arrival status</Label>
              <div className="tw-appointment-view__arrival-options">
                {ARRIVAL_STATUSES.map((s) => (
                  <Radio key={s} value={s} className="tw-appointment-view__arrival-option">
                    {ARRIVAL_STATUS_LABELS[s]}
                  </Radio>
                ))}
              </div>
              <p id="tw-arrival-hint" className="tw-appointment-view__hint">
                Arrow keys choose; each choice is saved at once.
              </p>
            </RadioGroup>
            {message ? (
              <p className={message.tone === 'error' ? 'tw-calendar__alert' : 'tw-appointment-view__sent'} role={message.tone === 'error' ? 'alert' : 'status'}>
                {message.text}
              </p>
            ) : null}
          </div>
          <div className="tw-dialog__actions">
            <Button variant="secondary" onPress={() => void send()} isPending={reminder.isPending}>
              Send reminder
            </Button>
            <Button variant="secondary" onPress={onClose}>
              Close
            </Button>
            <Button variant="primary" onPress={() => onEdit(current)}>
              Edit
            </Button>
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
