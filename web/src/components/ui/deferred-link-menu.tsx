import { lazy, startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { afterFirstScreenSettles } from '../../lib/after-first-screen.js';
import type { LinkMenuButtonProps } from './link-menu.js';

const LinkMenuButton = lazy(() => import('./link-menu.js').then((m) => ({ default: m.LinkMenuButton })));

/**
 * A link menu for the always-visible shell whose menu and popover code (a large share of the ui
 * kit's interaction library) is fetched once the first screen has settled, or as soon as the pointer or
 * focus reaches it. Until then it is the same button; pressed early, the menu opens when its code
 * arrives. The swap happens in a transition, so the button never blinks.
 */
export function DeferredLinkMenuButton(props: Omit<LinkMenuButtonProps, 'defaultOpen' | 'autoFocus'>) {
  const [wanted, setWanted] = useState<{ open: boolean } | null>(null);
  const [focused, setFocused] = useState(false);
  const want = useCallback((open: boolean) => {
    startTransition(() => setWanted((current) => (current && (current.open || !open) ? current : { open })));
  }, []);

  useEffect(() => {
    let live = true;
    void afterFirstScreenSettles().then(() => live && want(false));
    return () => {
      live = false;
    };
  }, [want]);

  const placeholder = (
    <Button
      className={['tw-menu-button', props.className].filter(Boolean).join(' ')}
      aria-label={props.ariaLabel}
      aria-haspopup="true"
      aria-expanded={false}
      onHoverStart={() => want(false)}
      onFocusChange={(isFocused) => {
        setFocused(isFocused);
        if (isFocused) want(false);
      }}
      onPress={() => want(true)}
    >
      {props.label}
    </Button>
  );
  return (
    <Suspense fallback={placeholder}>
      {wanted ? <LinkMenuButton {...props} defaultOpen={wanted.open} autoFocus={focused || wanted.open} /> : placeholder}
    </Suspense>
  );
}
