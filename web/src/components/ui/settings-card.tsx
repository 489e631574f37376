import type { ReactNode } from 'react';

/** One section of a settings page: its heading, an optional header action (such as Add), then its content. */
export function SettingsCard({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <div className="tw-card tw-settings__card">
      <div className="tw-card__header">
        <h2 className="tw-card__title">{title}</h2>
        {action}
      </div>
      {children}
    </div>
  );
}
