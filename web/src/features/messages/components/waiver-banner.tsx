import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.js';
import { patientKeys } from '../../../lib/patients.js';
import { showToast } from '../../../lib/toasts.js';
import { messagesApi } from '../api/messages-api.js';
import { SMS_MESSAGES, withServerText } from '../sms-rules.js';

/**
 * Spec shell §2.10: shown while the patient has not signed the ePHI waiver. Accepting it on the
 * patient's behalf is possible only once the waiver text ('Read to Accept') has been opened;
 * a separate call emails the patient the waiver to sign.
 */
/**
 * Patients whose waiver text was opened on this page: the banner is mounted again whenever the
 * patient's record is refetched (a live update, a focus refetch), and having read the text stays true.
 */
const openedWaivers = new Set<string>();

export function WaiverBanner({ patientId, patientName }: { patientId: string; patientName: string }) {
  const queryClient = useQueryClient();
  const [read, setRead] = useState(() => openedWaivers.has(patientId));
  const [expanded, setExpanded] = useState(() => openedWaivers.has(patientId));
  const [busy, setBusy] = useState<'accept' | 'request' | null>(null);
  const [requested, setRequested] = useState(false);
  const textId = useId();

  const accept = async () => {
    setBusy('accept');
    try {
      await messagesApi.acceptWaiver(patientId);
      // Spec shell §7.5: accepting refreshes the patient; the banner goes with the new answer.
      await queryClient.invalidateQueries({ queryKey: patientKeys.detail(patientId) });
      showToast(`${patientName} accepted the ePHI waiver`, { tone: 'success' });
    } catch (error) {
      showToast(withServerText(SMS_MESSAGES.acceptWaiverFailed, error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const request = async () => {
    setBusy('request');
    try {
      await messagesApi.requestWaiver(patientId);
      setRequested(true);
      showToast(`The waiver was emailed to ${patientName}`, { tone: 'success' });
    } catch (error) {
      showToast(withServerText(SMS_MESSAGES.requestWaiverFailed, error), { tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="tw-waiver" aria-label="ePHI waiver">
      <p className="tw-waiver__lead">
        <strong>{patientName} has not signed the ePHI waiver.</strong> Text messages are not a secure channel; the patient must agree before protected health
        information is sent by SMS.
      </p>
      <button
        type="button"
        className="tw-waiver__toggle"
        aria-expanded={expanded}
        aria-controls={textId}
        onClick={() => {
          setExpanded((open) => !open);
          setRead(true);
          openedWaivers.add(patientId);
        }}
      >
        Read to Accept
      </button>
      <div id={textId} hidden={!expanded} className="tw-waiver__text">
        <p>
          I understand that text messages (SMS and MMS) are not encrypted and may be read by others with access to my phone or carrier records. I authorize the
          practice to send me messages that may contain my electronic protected health information (ePHI), such as appointment details, test results and care
          instructions, by text message to this number. I may withdraw this authorization at any time by replying STOP or by telling the practice.
        </p>
      </div>
      <div className="tw-waiver__actions">
        <Button size="sm" variant="primary" isDisabled={!read} isPending={busy === 'accept'} onPress={() => void accept()}>
          Accept on patient's behalf
        </Button>
        <Button size="sm" isPending={busy === 'request'} isDisabled={requested} onPress={() => void request()}>
          {requested ? 'Waiver request sent' : 'Email waiver request'}
        </Button>
      </div>
    </section>
  );
}
