import { useId, type ReactNode } from 'react';

/** One filter of a message list's toolbar: a plain labelled input (search, number or date). */
export function FilterInput({
  label,
  value,
  onChange,
  type = 'text',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'search' | 'date';
}) {
  const id = useId();
  return (
    <div className="tw-field">
      <label htmlFor={id} className="tw-field__label">
        {label}
      </label>
      <input id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/**
 * A list of calls or faxes: a focusable region that scrolls sideways on a phone, whose caption
 * says how many there are (or that they are loading).
 */
export function MessageTable({ label, caption, columns, children }: { label: string; caption: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="tw-fax-table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className="tw-fax-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
