import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { AppointmentInput } from '../../../../../shared/calendar/calendar-schema.js';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { Button } from '../../../components/ui/button.js';
import { ConfirmDialog, MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { dateLabel, timeLabel } from '../calendar-dates.js';

export type ChangeScope = 'one' | 'series';

/**
 * The body that moves or resizes an occurrence: for 'one', that occurrence alone at its new time;
 * for 'series', the series' first start shifted by as much as the occurrence moved.
 */
export function movedInput(o: AppointmentOccurrence, start: string, end: string, scope: ChangeScope): AppointmentInput {
  const s = o.series;
  const shift = new Date(start).getTime() - new Date(o.start).getTime();
  return {
    patientId: s.patientId,
    appointmentTypeId: s.appointmentTypeId,
    providerId: s.providerId,
    visitType: s.visitType,
    bookingLocationId: s.bookingLocationId,
    start: scope === 'one' ? start : new Date(new Date(s.start).getTime() + shift).toISOString(),
    durationMinutes: Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000),
    recurrence: scope === 'one' ? { frequency: 'Never' } : s.recurrence,
    notes: s.notes,
    updatedAt: s.updatedAt,
  };
}

/** A recurring appointment asks whether a change is for this occurrence or the whole series. */
export function ScopeDialog({
  occurrence,
  action,
  onChoose,
  onClose,
}: {
  occurrence: AppointmentOccurrence;
  action: 'change' | 'cancel';
  onChoose: (scope: ChangeScope) => void;
  onClose: () => void;
}) {
  const verb = action === 'cancel' ? 'Cancel' : 'Change';
  return (
    <ModalOverlay isOpen onOpenChange={(open) => (open ? undefined : onClose())} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal" style={{ width: MODAL_WIDTH.sm }}>
        <AriaDialog className="tw-dialog" role="alertdialog">
          <Heading slot="title" className="tw-dialog__title">
            Recurring appointment
          </Heading>
          <div className="tw-dialog__body">
            <p>
              {verb} only this one, on {dateLabel(occurrence.occurrenceDay)}, or the whole series?
            </p>
          </div>
          <div className="tw-dialog__actions">
            <Button variant="secondary" onPress={onClose}>
              Go back
            </Button>
            <Button variant="secondary" onPress={() => onChoose('series')}>
              The whole series
            </Button>
            <Button variant="primary" autoFocus onPress={() => onChoose('one')}>
              This one
            </Button>
          </div>
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/** Booking or moving into time outside the provider's working hours, or into their blocked time, asks first. */
export function HoursDialog({
  conflict,
  providerName,
  start,
  end,
  timeZone,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  conflict: { kind: 'off' | 'blocked'; label: string };
  providerName: string;
  start: string;
  end: string;
  timeZone: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const when = `${timeLabel(start, timeZone)} to ${timeLabel(end, timeZone)}`;
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={conflict.kind === 'blocked' ? 'Blocked time' : 'Outside working hours'}
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
    >
      <p>
        {conflict.kind === 'blocked'
          ? `${when} overlaps ${providerName}'s blocked time (${conflict.label}).`
          : `${when} is outside ${providerName}'s working hours.`}{' '}
        Book it anyway?
      </p>
    </ConfirmDialog>
  );
}
