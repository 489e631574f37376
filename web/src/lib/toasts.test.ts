import { afterEach, describe, expect, it } from 'vitest';
import { showToast, toastQueue } from './toasts.js';

afterEach(() => {
  for (const toast of [...toastQueue.visibleToasts]) toastQueue.close(toast.key);
});

describe('toasts', () => {
  it('stay 15 s by default and 3 s when they report a success or an error (spec shell §8)', () => {
    const timeoutOf = (key: string) => toastQueue.visibleToasts.find((t) => t.key === key)?.timeout;
    expect(timeoutOf(showToast('Assigning draft to Jordan Ellis'))).toBe(15_000);
    expect(timeoutOf(showToast('Task created', { tone: 'success' }))).toBe(3_000);
    expect(timeoutOf(showToast('There was an error creating a new note', { tone: 'error' }))).toBe(3_000);
  });
});
