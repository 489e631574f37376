import type { ReactNode } from 'react';

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'warning' | 'danger' | 'info'; children: ReactNode }) {
  return <span className={`tw-badge tw-badge--${tone}`}>{children}</span>;
}
