import type { z } from '../zod.js';

/** First message per dotted path, as the API's error body carries them. */
export function zodFieldErrorsOf(result: { success: boolean; error?: z.core.$ZodError }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map(String).join('.');
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}
