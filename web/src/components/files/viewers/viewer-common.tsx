import type { ReactNode } from 'react';

export interface ViewerProps {
  url: string;
  name: string;
  extension: string;
}

export function PreviewMessage({ children }: { children: ReactNode }) {
  return (
    <p className="tw-file-preview__message" role="alert">
      {children}
    </p>
  );
}
