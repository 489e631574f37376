import { toastQueue, showToast } from './toasts.js';

/** Spec chart-data §8, shell §7.10: the clipboard's toasts. */
export const CLIPBOARD_MESSAGES = {
  copying: 'Copying to clipboard...',
  failed: 'Failed to copy to clipboard.',
  copied: (text: string) => `Copied ${text} to clipboard`,
} as const;

/** Copies the text with 'Copying to clipboard...' while pending, then a toast naming it, or the failure toast. */
export async function copyToClipboard(text: string): Promise<boolean> {
  const pending = showToast(CLIPBOARD_MESSAGES.copying);
  try {
    if (!navigator.clipboard) throw new Error('No clipboard');
    await navigator.clipboard.writeText(text);
    toastQueue.close(pending);
    showToast(CLIPBOARD_MESSAGES.copied(text), { tone: 'success' });
    return true;
  } catch {
    toastQueue.close(pending);
    showToast(CLIPBOARD_MESSAGES.failed, { tone: 'error' });
    return false;
  }
}
