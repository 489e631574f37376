import { Button } from './button.js';
import { ChevronLeftIcon, ChevronRightIcon } from './icons.js';

/**
 * "11–20 of 57" with previous and next page buttons under a paged table; nothing when one page
 * holds everything. `onOffset(null)` means the first page (lists keep offset 0 out of the URL).
 */
export function TablePager({
  offset,
  limit,
  shown,
  total,
  onOffset,
  className,
}: {
  offset: number;
  limit: number;
  shown: number;
  total: number;
  onOffset: (offset: number | null) => void;
  className?: string;
}) {
  if (total <= limit) return null;
  return (
    <div className={['tw-table-pager', className].filter(Boolean).join(' ')}>
      <span>
        {total === 0 ? 0 : offset + 1}–{offset + shown} of {total}
      </span>
      <Button
        size="sm"
        variant="secondary"
        aria-label="Previous page"
        isDisabled={offset === 0}
        onPress={() => onOffset(offset - limit > 0 ? offset - limit : null)}
      >
        <ChevronLeftIcon />
      </Button>
      <Button size="sm" variant="secondary" aria-label="Next page" isDisabled={offset + limit >= total} onPress={() => onOffset(offset + limit)}>
        <ChevronRightIcon />
      </Button>
    </div>
  );
}
