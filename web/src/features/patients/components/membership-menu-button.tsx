import { lazy } from 'react';
import { DeferredMenuButton } from '../../../components/ui/deferred-menu-button.js';
import { ChevronDownIcon } from '../../../components/ui/icons.js';
import { usePartnerApps } from '../../../lib/partner-apps.js';

const MembershipMenu = lazy(() => import('./membership-windows.js').then((m) => ({ default: m.MembershipMenu })));

/**
 * The chart header's Membership menu. Its menu and windows' code (a third of a chart's first
 * download) is not needed to show the header: it comes once the first screen has settled, or when
 * the button is reached. Without a membership origin the menu is not offered.
 */
export function MembershipMenuButton({ patientId }: { patientId: string }) {
  const membership = usePartnerApps().data?.membership;
  if (!membership) return null;
  return (
    <DeferredMenuButton
      label={
        <>
          Membership <ChevronDownIcon />
        </>
      }
      className="tw-profile__membership"
      menu={(mount) => <MembershipMenu patientId={patientId} {...mount} />}
    />
  );
}
