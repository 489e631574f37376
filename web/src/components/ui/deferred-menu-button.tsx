import { startTransition, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { afterFirstScreenSettles } from '../../lib/after-first-screen.js';

/** How the real menu button mounts when it takes the placeholder's place. */
export interface MenuMount {
  defaultOpen: boolean;
  autoFocus: boolean;
}

export interface DeferredMenuButtonProps {
  label: ReactNode;
  ariaLabel?: string;
  className?: string;
  /** The real menu button, from a lazy module: rendered once wanted, inside this component's Suspense. */
  menu: (mount: MenuMount) => ReactNode;
}

/**
 * A menu button whose menu and popover code (a large share of the ui kit's interaction library)
 * is fetched once the first screen has settled, or as soon as the pointer or focus reaches it.
 * Until then it is the same button; pressed early, the menu opens when its code arrives. The swap
 * happens in a transition, so the button never blinks.
 */
export function DeferredMenuButton({ label, ariaLabel, className, menu }: DeferredMenuButtonProps) {
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
      className={['tw-menu-button', className].filter(Boolean).join(' ')}
      aria-label={ariaLabel}
      aria-haspopup="true"
      aria-expanded={false}
      onHoverStart={() => want(false)}
      onFocusChange={(isFocused) => {
        setFocused(isFocused);
        if (isFocused) want(false);
      }}
      onPress={() => want(true)}
    >
      {label}
    </Button>
  );
  return <Suspense fallback={placeholder}>{wanted ? menu({ defaultOpen: wanted.open, autoFocus: focused || wanted.open }) : placeholder}</Suspense>;
}
