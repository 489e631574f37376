import { Component, type ReactNode } from 'react';
import { Button } from './ui/button.js';
import { Link } from './ui/link.js';
import { paths } from '../lib/paths.js';
import { GENERIC_ERROR_TEXT } from './startup-error-view.js';

/** Spec shell §8 texts (the generic one lives with the startup view, which the first screen carries). */
export { GENERIC_ERROR_TEXT };
/** The same boundary, for one panel of a page (spec notes §8 'Generic boundary'). */
export const PANEL_ERROR_TEXT = 'Something went wrong.';
export const NOT_FOUND_TEXT = 'Sorry, we were unable to find what you were looking for.';
export const PRACTICE_LOAD_ERROR_TEXT = "Something went wrong loading your practice's data, please refresh the page.";

const reload = () => window.location.reload();

export function GenericErrorView() {
  return (
    <div className="tw-error-view" role="alert">
      <h1 className="tw-error-view__title">{GENERIC_ERROR_TEXT}</h1>
      <Button variant="primary" onPress={reload}>
        Refresh
      </Button>
    </div>
  );
}

export function NotFoundView() {
  return (
    <div className="tw-error-view">
      <h1 className="tw-error-view__title">{NOT_FOUND_TEXT}</h1>
      <Link variant="secondary" href={paths.home()}>
        Go to Dashboard
      </Link>
    </div>
  );
}

export function PracticeLoadErrorView() {
  return (
    <div className="tw-error-view" role="alert">
      <h1 className="tw-error-view__title">{PRACTICE_LOAD_ERROR_TEXT}</h1>
      <Button variant="primary" onPress={reload}>
        Reload
      </Button>
    </div>
  );
}

interface BoundaryState {
  failed: boolean;
}

/**
 * Keeps a page usable when one of its panels fails to render (or its code fails to load): the
 * panel says so and offers a refresh, the rest of the page stays.
 */
export class PanelErrorBoundary extends Component<{ label: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    console.error('Panel failed', this.props.label, error.name);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="tw-card tw-panel-error" role="alert" aria-label={this.props.label}>
        <p className="tw-panel-error__text">{PANEL_ERROR_TEXT}</p>
        <Button variant="secondary" size="sm" onPress={reload}>
          Refresh
        </Button>
      </section>
    );
  }
}
