import type { z } from '../../../shared/zod.js';

/** First message per field path ("address.line1"): the same keys the API uses in its 400 `fieldErrors`. */
export function zodFieldErrors(error: z.core.$ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (path && !(path in out)) out[path] = issue.message;
  }
  return out;
}
