import type { ReactNode } from 'react';
import { NETWORK_ERROR_MESSAGE } from '../../lib/api-error.js';
import { Spinner } from './spinner.js';

export interface QueryTableProps<T> {
  /** The list's query; while it loads or after it fails, that is shown instead of the table. */
  query: { isPending: boolean; isError: boolean; error: Error | null };
  /** The rows to show (a search may have narrowed them). */
  items: readonly T[] | undefined;
  /** Said while the list loads; by default 'Loading' and the table's name. */
  loadingLabel?: string;
  /** Shown when there are no rows to show. */
  emptyText: string;
  /** Said when the query failed; by default that the server could not be reached. A function words it from the error. */
  errorText?: string | ((error: Error | null) => string);
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  className?: string;
  /** Marks the table as refetching (a newer page or filter is on its way). */
  fetching?: boolean;
  /**
   * A table that scrolls sideways on a phone: its wrapper becomes a focusable region, named by a
   * heading's id or by its own label, so a keyboard can scroll it.
   */
  scrollRegion?: { labelledBy: string } | { label: string };
  /** One `<tr>` (or row component) with its key. */
  renderRow: (item: T, index: number) => ReactNode;
}

/** A list screen's table: a spinner while loading, the error, the empty text, or the table of rows. */
export function QueryTable<T>({
  query,
  items,
  label,
  loadingLabel = `Loading ${label.toLowerCase()}`,
  emptyText,
  errorText = NETWORK_ERROR_MESSAGE,
  columns,
  className = 'tw-table',
  fetching,
  scrollRegion,
  renderRow,
}: QueryTableProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) {
    return (
      <p className="tw-empty" role="alert">
        {typeof errorText === 'function' ? errorText(query.error) : errorText}
      </p>
    );
  }
  if (!items?.length) return <p className="tw-empty">{emptyText}</p>;
  return (
    <div
      className="tw-table-wrap"
      {...(scrollRegion
        ? { tabIndex: 0, role: 'region', ...('label' in scrollRegion ? { 'aria-label': scrollRegion.label } : { 'aria-labelledby': scrollRegion.labelledBy }) }
        : {})}
    >
      <table className={className} aria-label={label} data-fetching={fetching || undefined}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map((item, index) => renderRow(item, index))}</tbody>
      </table>
    </div>
  );
}
