/** Initials of a display name: first letters of the first and last words. */
export function initialsOf(firstName?: string | null, lastName?: string | null): string {
  const first = (firstName ?? '').trim().charAt(0);
  const last = (lastName ?? '').trim().charAt(0);
  return `${first}${last}`.toUpperCase() || '?';
}

export function Avatar({ firstName, lastName, size = 'md' }: { firstName?: string | null; lastName?: string | null; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span className={`tw-avatar tw-avatar--${size}`} aria-hidden="true">
      {initialsOf(firstName, lastName)}
    </span>
  );
}
