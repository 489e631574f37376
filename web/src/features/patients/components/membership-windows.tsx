import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { MEMBERSHIP_ACTION_KEYS, MEMBERSHIP_ACTIONS, PARTNER_CLOSE_DELAY_MS, type MembershipAction } from '../../../../../shared/partners/partner-constants.js';
import { membershipFrameUrl, partnerMessageAction } from '../../../../../shared/partners/partner-schema.js';
import { Button } from '../../../components/ui/button.js';
import { MODAL_WIDTH } from '../../../components/ui/dialog.js';
import { ChevronDownIcon } from '../../../components/ui/icons.js';
import { MenuButton, MenuItem } from '../../../components/ui/menu.js';
import { usePartnerApps } from '../../../lib/partner-apps.js';
import { patientKeys } from '../../../lib/patients.js';

interface MembershipWindowState {
  id: string;
  action: MembershipAction;
}

const windowId = (action: MembershipAction, patientId: string) => `membership-${action}-${patientId}`;

/**
 * The patient's membership windows (spec shell §4 Partner/membership windows): open membership,
 * create charges and create user are the core product's pages, framed from the practice's
 * membership origin under the partner windows' rules. Windows are added and removed by id; asking
 * for one already open adds nothing. Without a membership origin the menu is not offered.
 */
export function MembershipMenu({ patientId, defaultOpen, autoFocus }: { patientId: string; defaultOpen?: boolean; autoFocus?: boolean }) {
  const apps = usePartnerApps();
  const membership = apps.data?.membership;
  const [windows, setWindows] = useState<readonly MembershipWindowState[]>([]);
  if (!membership) return null;

  const add = (action: MembershipAction) => {
    const id = windowId(action, patientId);
    setWindows((current) => (current.some((w) => w.id === id) ? current : [...current, { id, action }]));
  };
  const remove = (id: string) => setWindows((current) => current.filter((w) => w.id !== id));

  return (
    <>
      <MenuButton
        label={
          <>
            Membership <ChevronDownIcon />
          </>
        }
        className="tw-profile__membership"
        defaultOpen={defaultOpen}
        autoFocus={autoFocus}
      >
        {MEMBERSHIP_ACTION_KEYS.map((action) => (
          <MenuItem key={action} id={action} onAction={() => add(action)}>
            {MEMBERSHIP_ACTIONS[action].label}
          </MenuItem>
        ))}
      </MenuButton>
      {windows.map((w) => (
        <MembershipWindow key={w.id} action={w.action} patientId={patientId} origin={membership.origin} local={membership.local} onClose={() => remove(w.id)} />
      ))}
    </>
  );
}

function MembershipWindow({
  action,
  patientId,
  origin,
  local,
  onClose,
}: {
  action: MembershipAction;
  patientId: string;
  origin: string;
  local: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const frame = useRef<HTMLIFrameElement>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const title = MEMBERSHIP_ACTIONS[action].label;

  useEffect(() => {
    let timer: number | undefined;
    const onMessage = (event: MessageEvent) => {
      const result = partnerMessageAction(event, origin);
      if (result.kind === 'ignored') {
        // The origin only: a message may carry patient data.
        if (result.reason === 'origin') console.warn('Membership window: ignored a message not from the membership origin', event.origin);
        return;
      }
      // Another window of the same origin speaks for itself, not for this one.
      if (event.source !== frame.current?.contentWindow) return;
      if (result.kind === 'success') {
        setAlert(result.message);
        // The core product may have changed the patient's membership.
        void queryClient.invalidateQueries({ queryKey: patientKeys.detail(patientId) });
        return;
      }
      window.clearTimeout(timer);
      timer = window.setTimeout(() => closeRef.current(), PARTNER_CLOSE_DELAY_MS);
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      window.clearTimeout(timer);
    };
  }, [origin, patientId, queryClient]);

  const label = local ? `${title} (local membership stand-in)` : title;
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && onClose()} isDismissable className="tw-modal-overlay">
      <Modal className="tw-modal tw-membership-window" style={{ width: MODAL_WIDTH.md }}>
        <Dialog className="tw-dialog" data-testid="membership-window">
          {({ close }) => (
            <>
              <div className="tw-membership-window__header">
                <Heading slot="title" className="tw-dialog__title">
                  {label}
                </Heading>
                <Button size="sm" variant="quiet" onPress={close}>
                  Close
                </Button>
              </div>
              {alert ? (
                <p className="tw-membership-window__alert" role="alert">
                  {alert}
                </p>
              ) : null}
              <iframe
                ref={frame}
                className="tw-membership-window__frame"
                title={label}
                src={membershipFrameUrl(origin, action, patientId)}
                // Scripts and forms for the core product's page; its own origin for its own calls; no top navigation, popups or downloads.
                sandbox="allow-scripts allow-forms allow-same-origin"
                referrerPolicy="no-referrer"
                allow=""
              />
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
