import { lazy } from 'react';
import { DeferredMenuButton } from './deferred-menu-button.js';
import type { LinkMenuButtonProps } from './link-menu.js';

const LinkMenuButton = lazy(() => import('./link-menu.js').then((m) => ({ default: m.LinkMenuButton })));

/** A link menu for the always-visible shell, its menu code fetched once the first screen has settled (`DeferredMenuButton`). */
export function DeferredLinkMenuButton(props: Omit<LinkMenuButtonProps, 'defaultOpen' | 'autoFocus'>) {
  return (
    <DeferredMenuButton
      label={props.label}
      ariaLabel={props.ariaLabel}
      className={props.className}
      menu={(mount) => <LinkMenuButton {...props} {...mount} />}
    />
  );
}
