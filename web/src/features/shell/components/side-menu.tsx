import { memo, useCallback, useContext, type CSSProperties } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { EditDashboardIcon, TidewellMark } from '../../../components/ui/icons.js';
import { paths } from '../../../lib/paths.js';
import { MenuBadgeCountsContext } from '../menu-badge-counts.js';
import { badgeLabel, isCurrentSection, MENU_ITEMS, showsEditDashboard, type MenuBadge, type MenuItem } from '../menu-items.js';
import { SIDEBAR } from '../sidebar-constants.js';
import { useHoverExpand } from '../use-hover-expand.js';

export interface SideMenuProps {
  /** Mobile: the menu is an overlay, shown while open. */
  mobile: boolean;
  mobileOpen: boolean;
  onMobileClose: () => void;
}

/** Memoized: the layout re-renders for the practice's and the user's answers, which the menu does not show. */
export const SideMenu = memo(function SideMenu({ mobile, mobileOpen, onMobileClose }: SideMenuProps) {
  const { pathname } = useLocation();
  const { expanded, collapse, hoverProps } = useHoverExpand(SIDEBAR.hoverDelayMs);
  const isExpanded = mobile ? mobileOpen : expanded;

  const style = {
    '--tw-sidenav-width': `${isExpanded ? SIDEBAR.expandedWidth : SIDEBAR.miniWidth}px`,
    '--tw-sidenav-animation': `${SIDEBAR.animationMs}ms`,
  } as CSSProperties;

  const afterNavigate = useCallback(() => {
    collapse();
    if (mobile) onMobileClose();
  }, [collapse, mobile, onMobileClose]);

  if (mobile && !mobileOpen) return null;

  return (
    <>
      {mobile ? <div className="tw-sidenav__backdrop" onClick={onMobileClose} aria-hidden="true" /> : null}
      <nav
        aria-label="Main"
        className={`tw-sidenav${mobile ? ' tw-sidenav--mobile' : ''}`}
        data-expanded={isExpanded || undefined}
        style={style}
        {...(mobile ? {} : hoverProps)}
      >
        <div className="tw-sidenav__brand">
          <TidewellMark />
          <span className="tw-sidenav__label tw-sidenav__brand-name">Tidewell</span>
        </div>
        <ul className="tw-sidenav__list">
          {MENU_ITEMS.map((item) => {
            const current = isCurrentSection(pathname, item.section);
            return (
              <li key={item.label}>
                {item.badge ? (
                  <BadgedMenuLink item={item} badge={item.badge} current={current} expanded={isExpanded} onNavigate={afterNavigate} />
                ) : (
                  <MenuLink item={item} count={null} current={current} expanded={isExpanded} onNavigate={afterNavigate} />
                )}
              </li>
            );
          })}
        </ul>
        {showsEditDashboard(pathname) ? (
          <div className="tw-sidenav__footer">
            <Link to={paths.homeEdit()} className="tw-sidenav__item" title={isExpanded ? undefined : 'Edit Dashboard'} onClick={afterNavigate}>
              <EditDashboardIcon className="tw-sidenav__icon" />
              <span className="tw-sidenav__label">Edit Dashboard</span>
            </Link>
          </div>
        ) : null}
      </nav>
    </>
  );
});

interface MenuLinkProps {
  item: MenuItem;
  /** The badge's label ('9+' above 9), null for none. */
  count: string | null;
  current: boolean;
  expanded: boolean;
  onNavigate: () => void;
}

/** Reads its own unread total, so a count's answer re-renders this item only. */
function BadgedMenuLink({ badge, ...props }: Omit<MenuLinkProps, 'count'> & { badge: MenuBadge }) {
  const count = badgeLabel(useContext(MenuBadgeCountsContext)[badge] ?? 0);
  return <MenuLink {...props} count={count} />;
}

/** Memoized: the other badge's answer leaves this item as it is. */
const MenuLink = memo(function MenuLink({ item, count, current, expanded, onNavigate }: MenuLinkProps) {
  const Icon = item.icon;
  return (
    <Link
      to={item.href}
      className="tw-sidenav__item"
      aria-current={current ? 'page' : undefined}
      title={expanded ? undefined : item.label}
      onClick={onNavigate}
      aria-label={count ? `${item.label}, ${count} unread` : undefined}
    >
      <span className="tw-sidenav__icon-wrap">
        <Icon className="tw-sidenav__icon" />
        {count ? (
          <span className="tw-sidenav__badge" data-testid={`menu-badge-${item.badge}`} aria-hidden="true">
            {count}
          </span>
        ) : null}
      </span>
      <span className="tw-sidenav__label">{item.label}</span>
    </Link>
  );
});
