import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { PracticeLoadErrorView } from '../../../components/error-views.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { markFirstScreenShown } from '../../../lib/after-first-screen.js';
import { holdWhileFetching } from '../../../lib/hold-while-fetching.js';
import { useMediaQuery } from '../../../lib/use-media-query.js';
import { USER_FETCH_ERROR_TEXT, useCurrentUser, usePracticeMetadata } from '../../../lib/practice.js';
import { focusMain, MAIN_ID } from '../../../lib/focus.js';
import { useAnyNoteRecording } from '../../../lib/recording-status.js';
import { isApiError } from '../../../lib/api-error.js';
import { logout } from '../../../lib/session.js';
import { useSessionExpired } from '../../../lib/session-expiry.js';
import { MFA_REQUIRED_REASON, useMfaRequired } from '../../../lib/mfa-setup.js';
import { MOBILE_MEDIA_QUERY } from '../sidebar-constants.js';
import { SideMenu } from './side-menu.js';
import { TopBar } from './top-bar.js';
import { useRouteFocus } from '../use-route-focus.js';
import '../shell.css';

/** Rare (a session that ends mid-recording), and it brings Cognito's sign-in: loaded when it opens. */
const SessionExpiryModal = lazy(() => import('./session-expiry-modal.js').then((m) => ({ default: m.SessionExpiryModal })));

/** Once per admin of a practice that requires two-step sign-in: loaded when the API asks for it. */
const MfaSetupScreen = lazy(() => import('../../auth/components/mfa-setup-screen.js').then((m) => ({ default: m.MfaSetupScreen })));

export const DEACTIVATED_BANNER_TEXT = 'Practice Deactivated: All automated messages, appointment reminders and integrations are currently disabled.';

/** Spec shell §2.3: the green banner while any note window records. */
export const RECORDING_BANNER_TEXT = 'Recording in progress';

/** The menu badges' totals come from `MenuBadgeCountsContext`, which the app provides around the layout. */
export interface AppLayoutProps {
  /** Top bar search trigger (the command palette button), composed by the app; the same element between renders lets the memoized top bar skip them. */
  search?: ReactNode;
  /** Always-mounted workspace layers (the command palette dialog, live-feed listeners). */
  children?: ReactNode;
}

export function AppLayout({ search, children }: AppLayoutProps = {}) {
  const practice = usePracticeMetadata();
  const user = useCurrentUser();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const openMobileMenu = useCallback(() => setMobileMenuOpen(true), []);
  const closeMobileMenu = useCallback(() => setMobileMenuOpen(false), []);
  const recording = useAnyNoteRecording();
  const sessionExpired = useSessionExpired();
  const mfaRequired = useMfaRequired();
  // The refusal for a missing authenticator app is no failed session: the set-up screen answers it.
  useUserFetchFailure(user.isError && user.data === undefined && !mfaRequired && !(isApiError(user.error, 403) && user.error.reason === MFA_REQUIRED_REASON));
  useRouteFocus();
  // The practice's answer re-renders the shell at once (react-query's store updates are
  // synchronous); its menus, top bar and first route are the page's largest render, so they
  // follow in a render React can interrupt, letting the browser paint and handle input meanwhile.
  const shellShown = useDeferredValue(!practice.isPending);

  // Every request is refused until the authenticator app is set up, so nothing else can show.
  if (mfaRequired) {
    return (
      <Suspense fallback={<Spinner label="Loading" />}>
        <MfaSetupScreen />
      </Suspense>
    );
  }
  if (practice.isError) return <PracticeLoadErrorView />;
  if (practice.isPending || !shellShown) {
    return (
      <div className="tw-shell-loading">
        <Spinner label="Loading your practice" />
      </div>
    );
  }

  return (
    <div className={`tw-shell${mobile ? ' tw-shell--mobile' : ''}`}>
      <SkipLink />
      <SideMenu mobile={mobile} mobileOpen={mobileMenuOpen} onMobileClose={closeMobileMenu} />
      <div className="tw-shell__main">
        <TopBar practice={practice.data} user={user.data} mobile={mobile} onOpenMenu={openMobileMenu} search={search} />
        {practice.data.productDeactivatedAt ? (
          <div className="tw-banner tw-banner--danger" role="alert">
            {DEACTIVATED_BANNER_TEXT}
          </div>
        ) : null}
        {recording ? (
          <div className="tw-banner tw-banner--success" role="status">
            {RECORDING_BANNER_TEXT}
          </div>
        ) : null}
        <main className="tw-shell__content" id={MAIN_ID} tabIndex={-1}>
          <Suspense
            fallback={
              <div className="tw-page">
                <Spinner />
              </div>
            }
          >
            <Outlet />
            <FirstScreenShown />
          </Suspense>
        </main>
      </div>
      {children}
      {sessionExpired ? (
        <Suspense fallback={null}>
          <SessionExpiryModal email={user.data?.emailAddress} />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * The first Tab stop of every signed-in screen. Routes live in the URL's hash, so the link moves
 * focus itself instead of following `#main`, which the router would read as a route.
 */
function SkipLink() {
  return (
    <a
      className="tw-skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        focusMain();
      }}
    >
      Skip to main content
    </a>
  );
}

/**
 * Spec shell §4/§8: a signed-in user whose practice record cannot be fetched is told so in an alert
 * and sent back to sign-in. A super user without a record never gets here: the API answers for
 * them as 'Super User'. A later refetch that fails keeps the record already shown.
 */
function useUserFetchFailure(failed: boolean) {
  const handled = useRef(false);
  useEffect(() => {
    if (!failed || handled.current) return;
    handled.current = true;
    window.alert(USER_FETCH_ERROR_TEXT);
    void logout();
  }, [failed]);
}

/**
 * Commits together with the route's screen (same Suspense boundary), so it marks when that screen
 * is on; the screen has settled once the answers its queries asked for are in as well.
 */
function FirstScreenShown() {
  const queryClient = useQueryClient();
  useEffect(() => holdWhileFetching(queryClient), [queryClient]);
  useEffect(() => markFirstScreenShown(), []);
  return null;
}
