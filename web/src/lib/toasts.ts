import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

export type ToastTone = 'default' | 'success' | 'error';

export interface ToastContent {
  title: string;
  description?: string;
  tone: ToastTone;
}

/** Spec shell §8: toasts stay 15 s by default; success and error toasts 3 s. */
export const TOAST_TIMEOUT_MS: Record<ToastTone, number> = { default: 15_000, success: 3_000, error: 3_000 };

export const toastQueue = new ToastQueue<ToastContent>({ maxVisibleToasts: 4 });

/** An error toast appends the server's text when it carries one (spec shell §8, notes §8). */
export function withServerText(message: string, error: unknown): string {
  const detail = error instanceof Error ? error.message.trim() : '';
  return detail && detail !== message ? `${message} ${detail}` : message;
}

export function showToast(title: string, options: { tone?: ToastTone; description?: string } = {}): string {
  const tone = options.tone ?? 'default';
  return toastQueue.add({ title, description: options.description, tone }, { timeout: TOAST_TIMEOUT_MS[tone] });
}
