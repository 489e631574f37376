import type { ReactNode } from 'react';

/**
 * A list-table row that opens its item when clicked anywhere. The row's own link stays the
 * keyboard and screen-reader way in, so a click on that link is left to it.
 */
export function ClickableRow({ onOpen, className, children }: { onOpen: () => void; className?: string; children: ReactNode }) {
  return (
    <tr
      className={className ? `tw-table__row ${className}` : 'tw-table__row'}
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('a')) onOpen();
      }}
    >
      {children}
    </tr>
  );
}
