import { memo, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.js';
import { HelpIcon, LogoutIcon, MenuIcon, ChevronDownIcon, DashboardIcon, UserIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { DeferredLinkMenuButton } from '../../../components/ui/deferred-link-menu.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName, type PracticeMetadata, type PracticeUser } from '../../../lib/practice.js';
import { logout } from '../../../lib/session.js';
import { PRODUCTS } from '../products.js';
import { RESOURCE_LINKS } from '../resources.js';

export interface TopBarProps {
  practice: PracticeMetadata;
  user: PracticeUser | undefined;
  mobile: boolean;
  onOpenMenu: () => void;
  search?: ReactNode;
}

/** Memoized: the layout also re-renders for the recording banner, the session's state and the palette, which the top bar does not show. */
export const TopBar = memo(function TopBar({ practice, user, mobile, onOpenMenu, search }: TopBarProps) {
  return (
    <header className="tw-topbar">
      {mobile ? (
        <Button variant="quiet" aria-label="Open menu" onPress={onOpenMenu} className="tw-topbar__menu">
          <MenuIcon />
        </Button>
      ) : null}
      <ProductSwitcher />
      {user?.superUser ? (
        // Spec shell §2.3: only super users reach the organizations page from the practice name.
        <Link href={paths.organizations()} className="tw-topbar__practice tw-topbar__practice--link" data-testid="practice-name">
          {practice.practiceName}
        </Link>
      ) : (
        <span className="tw-topbar__practice" data-testid="practice-name" title={practice.practiceName}>
          {practice.practiceName}
        </span>
      )}
      <div className="tw-topbar__spacer" />
      {search}
      <DeferredLinkMenuButton
        className="tw-topbar__action"
        label={
          <>
            <HelpIcon />
            <span className="tw-topbar__label">Resources</span>
            <ChevronDownIcon />
          </>
        }
        items={RESOURCE_LINKS.map((link) => ({ id: link.id, label: link.label, href: link.href, newTab: true }))}
      />
      {user ? (
        // A super user may have no User record to open; the team list is their team settings.
        <Link
          href={user.superUser ? paths.team() : paths.teamMember(user.userId)}
          className="tw-topbar__user"
          aria-label={mobile ? displayUserName(user) : undefined}
        >
          {/* At phone width an icon stands in for the name, so the practice name keeps its room. */}
          {mobile ? <UserIcon /> : displayUserName(user)}
        </Link>
      ) : null}
      <Button variant="quiet" className="tw-topbar__action" onPress={() => void logout()}>
        <LogoutIcon />
        <span className="tw-topbar__label">Logout</span>
      </Button>
    </header>
  );
});

/** Spec shell §2.3: the product switcher, which goes to the core product. */
function ProductSwitcher() {
  const current = PRODUCTS.find((product) => product.current) ?? PRODUCTS[0];
  return (
    <DeferredLinkMenuButton
      className="tw-topbar__action tw-topbar__products"
      ariaLabel={`Product: ${current.label}. Switch product`}
      label={
        <>
          <DashboardIcon />
          <span className="tw-topbar__label">{current.label}</span>
          <ChevronDownIcon />
        </>
      }
      items={PRODUCTS.map((product) => ({ id: product.id, label: product.label, href: product.href, current: product.current }))}
    />
  );
}
