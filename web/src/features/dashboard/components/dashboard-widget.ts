import type { ReactNode } from 'react';

/** A widget the app composes into /home: its card title and what it shows. */
export interface DashboardWidget {
  title: string;
  render: () => ReactNode;
}
