import { useId, type ReactNode } from 'react';

interface PageProps {
  title: ReactNode;
  /** A line under the title; announced politely because lists update it as they load. */
  subtitle?: ReactNode;
  /** Buttons or links at the right of the header. */
  actions?: ReactNode;
  /** A tab bar between the header and the content (settings). */
  nav?: ReactNode;
  children: ReactNode;
}

/** A routed screen: its heading names the region for assistive technology. */
export function Page({ title, subtitle, actions, nav, children }: PageProps) {
  const titleId = useId();
  const heading = (
    <h1 id={titleId} className="tw-page__title">
      {title}
    </h1>
  );
  return (
    <section className="tw-page" aria-labelledby={titleId}>
      <div className="tw-page__header">
        {subtitle === undefined ? (
          heading
        ) : (
          <div>
            {heading}
            <p className="tw-page__subtitle" aria-live="polite">
              {subtitle}
            </p>
          </div>
        )}
        {actions}
      </div>
      {nav}
      {children}
    </section>
  );
}
