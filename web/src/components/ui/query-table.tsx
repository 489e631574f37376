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
  /** Said when the query failed; by default that the server could not be reached. */
  errorText?: string;
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  className?: string;
  /** One `<tr>` (or row component) with its key. */
  renderRow: (item: T) => ReactNode;
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
  renderRow,
}: QueryTableProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) {
    return (
      <p className="tw-empty" role="alert">
        {errorText}
      </p>
    );
  }
  if (!items?.length) return <p className="tw-empty">{emptyText}</p>;
  return (
    <div className="tw-table-wrap">
      <table className={className} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map(renderRow)}</tbody>
      </table>
    </div>
  );
}
