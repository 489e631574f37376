import type { ReactNode } from 'react';
import { Button, Menu as AriaMenu, MenuItem as AriaMenuItem, MenuTrigger, Popover, type MenuItemProps } from 'react-aria-components';

export interface MenuButtonProps {
  label: ReactNode;
  /** Accessible name when the label is an icon. */
  ariaLabel?: string;
  children: ReactNode;
  className?: string;
  /** Opens the menu on mount (pressed while its code was still loading). */
  defaultOpen?: boolean;
  autoFocus?: boolean;
}

export function MenuButton({ label, ariaLabel, children, className, defaultOpen, autoFocus }: MenuButtonProps) {
  return (
    <MenuTrigger defaultOpen={defaultOpen}>
      <Button aria-label={ariaLabel} autoFocus={autoFocus} className={['tw-menu-button', className].filter(Boolean).join(' ')}>
        {label}
      </Button>
      <Popover className="tw-popover" placement="bottom end">
        <AriaMenu className="tw-menu">{children}</AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}

export function MenuItem({ className, ...props }: MenuItemProps) {
  return <AriaMenuItem {...props} className={['tw-menu__item', className].filter(Boolean).join(' ')} />;
}
