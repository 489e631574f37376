import type { CSSProperties } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { EditDashboardIcon, TidewellMark } from '../../../components/ui/icons.js';
import { paths } from '../../../lib/paths.js';
import { badgeLabel, isCurrentSection, MENU_ITEMS, showsEditDashboard, type MenuBadgeCounts } from '../menu-items.js';
import { SIDEBAR } from '../sidebar-constants.js';
import { useHoverExpand } from '../use-hover-expand.js';

export interface SideMenuProps {
  /** Mobile: the menu is an overlay, shown while open. */
  mobile: boolean;
  mobileOpen: boolean;
  onMobileClose: () => void;
  badges?: MenuBadgeCounts;
}

export function SideMenu({ mobile, mobileOpen, onMobileClose, badges = {} }: SideMenuProps) {
  const { pathname } = useLocation();
  const { expanded, collapse, hoverProps } = useHoverExpand(SIDEBAR.hoverDelayMs);
  const isExpanded = mobile ? mobileOpen : expanded;

  const style = {
    '--tw-sidenav-width': `${isExpanded ? SIDEBAR.expandedWidth : SIDEBAR.miniWidth}px`,
    '--tw-sidenav-animation': `${SIDEBAR.animationMs}ms`,
  } as CSSProperties;

  const afterNavigate = () => {
    collapse();
    if (mobile) onMobileClose();
  };

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
            const Icon = item.icon;
            const count = item.badge ? badgeLabel(badges[item.badge] ?? 0) : null;
            return (
              <li key={item.label}>
                <Link
                  to={item.href}
                  className="tw-sidenav__item"
                  aria-current={isCurrentSection(pathname, item.section) ? 'page' : undefined}
                  title={isExpanded ? undefined : item.label}
                  onClick={afterNavigate}
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
}
