import { QueryTable, type QueryTableProps } from './query-table.js';

interface SettingsListProps<T> extends Omit<QueryTableProps<T>, 'className' | 'errorText'> {
  /** Adds the Actions column; each row then brings its own actions cell. */
  hasActions: boolean;
}

/** A settings page's list: a failed read says the server's reason; rows an admin may change end in an Actions column. */
export function SettingsList<T>({ columns, hasActions, ...props }: SettingsListProps<T>) {
  return (
    <QueryTable
      {...props}
      errorText={props.query.error?.message}
      className="tw-table tw-settings__table"
      columns={hasActions ? [...columns, 'Actions'] : columns}
    />
  );
}
