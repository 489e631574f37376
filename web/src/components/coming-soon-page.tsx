export interface ComingSoonPageProps {
  /** The screen's name as the side menu shows it. */
  screen: string;
  detail?: string;
}

/** Placeholder for routes whose screens arrive in later releases. */
export function ComingSoonPage({ screen, detail }: ComingSoonPageProps) {
  return (
    <section className="tw-page tw-coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title" className="tw-page__title">
        {screen}
      </h1>
      <p className="tw-coming-soon__text">The {screen} screen is coming soon.</p>
      {detail ? <p className="tw-coming-soon__detail">{detail}</p> : null}
    </section>
  );
}
