import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Spec shell §8 text, the same the router's error view shows. */
export const GENERIC_ERROR_TEXT = 'Sorry, something went wrong.';

/**
 * The generic error view for failures before or around the signed-in app (config.json missing,
 * a render error at the top). Plain markup with the ui kit's classes: the first screen does not
 * carry the ui kit's interaction library for a view it almost never shows.
 */
export function StartupErrorView() {
  return (
    <div className="tw-error-view" role="alert">
      <h1 className="tw-error-view__title">{GENERIC_ERROR_TEXT}</h1>
      <button type="button" className="tw-button tw-button--primary tw-button--md" onClick={() => window.location.reload()}>
        Refresh
      </button>
    </div>
  );
}

interface BoundaryState {
  failed: boolean;
}

/** Catches render errors outside the router (the router's own errorElement catches those inside). */
export class ErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled render error', error.name, info.componentStack?.split('\n')[1]?.trim());
  }

  override render() {
    return this.state.failed ? <StartupErrorView /> : this.props.children;
  }
}
