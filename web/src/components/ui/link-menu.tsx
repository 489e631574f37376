import type { ReactNode } from 'react';
import { MenuButton, MenuItem } from './menu.js';

export interface LinkMenuItem {
  id: string;
  label: string;
  href: string;
  /** Opens in a new tab (external resources). */
  newTab?: boolean;
  current?: boolean;
}

export interface LinkMenuButtonProps {
  label: ReactNode;
  ariaLabel?: string;
  className?: string;
  items: readonly LinkMenuItem[];
  defaultOpen?: boolean;
  autoFocus?: boolean;
}

/** A menu button whose items are links. */
export function LinkMenuButton({ items, ...button }: LinkMenuButtonProps) {
  return (
    <MenuButton {...button}>
      {items.map((item) => (
        <MenuItem
          key={item.id}
          id={item.id}
          href={item.href}
          {...(item.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          aria-current={item.current ? 'page' : undefined}
        >
          {item.label}
        </MenuItem>
      ))}
    </MenuButton>
  );
}
