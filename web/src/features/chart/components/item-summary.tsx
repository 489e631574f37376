import type { ReactNode } from 'react';

/** The dense card body: a title line with badges, muted metadata, and an optional note. */
/** `fields` names the form field behind each part, so a double-click there focuses it. */
export interface SummaryFields {
  title?: string;
  meta?: string;
  note?: string;
}

export function ItemSummary({
  title,
  badges,
  meta,
  note,
  fields,
  children,
}: {
  title: ReactNode;
  badges?: ReactNode;
  meta?: (string | false | null | undefined)[];
  note?: string | null;
  fields?: SummaryFields;
  children?: ReactNode;
}) {
  const metaParts = (meta ?? []).filter((part): part is string => Boolean(part));
  return (
    <>
      <div className="tw-chart-item__title-row">
        <span className="tw-chart-item__title" data-field={fields?.title}>
          {title}
        </span>
        {badges}
      </div>
      {metaParts.length ? (
        <div className="tw-chart-item__meta" data-field={fields?.meta}>
          {metaParts.join(' · ')}
        </div>
      ) : null}
      {note ? (
        <p className="tw-chart-item__note" data-field={fields?.note}>
          {note}
        </p>
      ) : null}
      {children}
    </>
  );
}

export function dateRange(start: string, end: string): string | null {
  if (start && end) return `${start} – ${end}`;
  if (start) return `Since ${start}`;
  if (end) return `Until ${end}`;
  return null;
}

/** Where an item came from when an intake form's answer wrote it (spec chart-data §3 formSource). */
export function formSourceText(formSource: string | null | undefined): string | null {
  return formSource ? `From ${formSource}` : null;
}
