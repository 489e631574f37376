import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { IDLE_LOCK_MINUTES_DEFAULT } from '../../../../../shared/practice/idle-lock.js';
import { ACTIVITY_EVENTS, createIdleTimer } from '../../../lib/idle-timer.js';
import { usePracticeMetadata } from '../../../lib/practice.js';
import { lastActivity, lockScreen, recordActivity, SCREEN_LOCK_ATTRIBUTE, useScreenLock } from '../../../lib/screen-lock.js';
import '../shell.css';

/** Seldom shown, and it brings Cognito's sign-in: loaded when the screen locks. */
const IdleLockDialog = lazy(() => import('./idle-lock-dialog.js').then((m) => ({ default: m.IdleLockDialog })));

const HIDDEN_CLASS = 'tw-screen-locked';
/** How often activity is shared with the app's other tabs (working in one keeps the others open). */
const SHARE_EVERY_MS = 5_000;

/**
 * Automatic logoff (HIPAA 164.312(a)(2)(iii)): after the practice's idle minutes the screen locks.
 * Nothing under the lock unmounts, so unlocking returns to the same screen with open note windows,
 * typed text and a recording in progress as they were.
 */
export function IdleLock() {
  const practice = usePracticeMetadata();
  const minutes = practice.data?.idleLockMinutes ?? IDLE_LOCK_MINUTES_DEFAULT;
  const lock = useScreenLock();
  useIdleTimer(minutes, lock === null);
  useHideBehindLock(lock !== null);
  return lock ? (
    <Suspense fallback={null}>
      <IdleLockDialog minutes={lock.minutes} />
    </Suspense>
  ) : null;
}

function useIdleTimer(minutes: number, running: boolean) {
  useEffect(() => {
    if (!running) return;
    let shared = 0;
    // A page opened (or brought back by the browser) after the idle time counts from the last activity before it.
    const timer = createIdleTimer({
      idleMs: minutes * 60_000,
      onIdle: () => lockScreen(minutes),
      since: lastActivity() ?? undefined,
      lastActivityElsewhere: () => lastActivity() ?? 0,
    });
    const onActivity = () => {
      timer.activity();
      const now = Date.now();
      if (now - shared >= SHARE_EVERY_MS) {
        shared = now;
        recordActivity(now);
      }
    };
    if (lastActivity() === null) recordActivity(Date.now());
    // Back from a sleeping computer or a hidden tab: the timers ran late, so look at the clock now.
    const onVisible = () => document.visibilityState === 'visible' && timer.check();
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { capture: true, passive: true });
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      timer.stop();
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [minutes, running]);
}

/**
 * While locked, every layer of the page but the lock's (the app, note windows, dialogs and
 * toasts, each its own child of body) is inert and invisible: no patient data shows, and neither
 * the keyboard nor a screen reader reaches it. Nothing is unmounted.
 */
function useHideBehindLock(locked: boolean) {
  useLayoutEffect(() => {
    if (!locked) return;
    const made = new Set<Element>();
    const hide = () => {
      for (const child of Array.from(document.body.children)) {
        if (child.hasAttribute(SCREEN_LOCK_ATTRIBUTE) || child.tagName === 'SCRIPT' || made.has(child)) continue;
        // The lock dialog's own focus-scope markers sit beside it.
        if (child.matches('[data-focus-scope-start], [data-focus-scope-end]')) continue;
        if (child.hasAttribute('inert')) continue;
        child.setAttribute('inert', '');
        made.add(child);
      }
    };
    hide();
    document.documentElement.classList.add(HIDDEN_CLASS);
    const observer = new MutationObserver(hide);
    observer.observe(document.body, { childList: true });
    return () => {
      observer.disconnect();
      document.documentElement.classList.remove(HIDDEN_CLASS);
      for (const child of made) child.removeAttribute('inert');
    };
  }, [locked]);
}
