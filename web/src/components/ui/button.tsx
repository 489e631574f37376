import { useEffect, useRef } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { announce } from '../../lib/announce.js';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'quiet';

export interface ButtonProps extends AriaButtonProps {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
}

/** Handlers a pending button keeps, so that focus, hover and tooltips still work while it waits. */
const KEPT_WHILE_PENDING = /Focus|Blur|Hover|Pointer(Enter|Leave|Over|Out)|Mouse(Enter|Leave|Over|Out)/;

/**
 * A pending button keeps its focus and its place in the tab order, ignores presses and does not submit
 * its form. It is not handed to react-aria as `isPending`: react-aria reads it out by an
 * `aria-labelledby` pointing at the button, which becomes a nameless image on the page once the
 * button goes (axe: role-img-alt). The button's own words are read instead.
 */
export function Button({ variant = 'secondary', size = 'md', className, isPending = false, ...props }: ButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const wasPending = useRef(isPending);
  useEffect(() => {
    const button = ref.current;
    if (wasPending.current !== isPending && button && button === document.activeElement) {
      announce(button.getAttribute('aria-label') ?? button.textContent ?? '');
    }
    wasPending.current = isPending;
  }, [isPending]);

  const live: Record<string, unknown> = { ...props };
  if (isPending) {
    for (const key of Object.keys(live)) if (key.startsWith('on') && !KEPT_WHILE_PENDING.test(key)) live[key] = undefined;
    if (live.type === 'submit') live.type = 'button';
    live['aria-disabled'] = true;
  }
  return (
    <AriaButton
      {...(live as AriaButtonProps)}
      ref={ref}
      className={['tw-button', `tw-button--${variant}`, `tw-button--${size}`, isPending && 'tw-button--pending', className].filter(Boolean).join(' ')}
    />
  );
}
