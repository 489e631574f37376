import type { ReactNode } from 'react';
import { Spinner } from './spinner.js';

interface SettingsListProps<T> {
  /** The list's query; while it loads or after it fails, that is shown instead of the table. */
  query: { isPending: boolean; isError: boolean; error: Error | null };
  items: readonly T[] | undefined;
  loadingLabel: string;
  emptyText: string;
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  /** Adds the Actions column; each row then brings its own actions cell. */
  hasActions: boolean;
  /** One `<tr>` with its key. */
  renderRow: (item: T) => ReactNode;
}

/** A settings list: a spinner while loading, the error, the empty text, or the table of rows. */
export function SettingsList<T>({ query, items, loadingLabel, emptyText, label, columns, hasActions, renderRow }: SettingsListProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError) {
    return (
      <p className="tw-empty" role="alert">
        {query.error?.message}
      </p>
    );
  }
  if (!items?.length) return <p className="tw-empty">{emptyText}</p>;
  return (
    <div className="tw-table-wrap">
      <table className="tw-table tw-settings__table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {hasActions ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>{items.map(renderRow)}</tbody>
      </table>
    </div>
  );
}
