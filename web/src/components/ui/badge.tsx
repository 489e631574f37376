import type { ReactNode } from 'react';

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'warning' | 'danger' | 'info'; children: ReactNode }) {
  return <span className={`tw-badge tw-badge--${tone}`}>{children}</span>;
}

/** A settings row's on/off state, the same words and tones in every list. */
export function ActiveBadge({ active }: { active: boolean }) {
  return active ? <Badge tone="info">Active</Badge> : <Badge tone="neutral">Inactive</Badge>;
}
