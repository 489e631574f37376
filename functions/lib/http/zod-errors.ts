import type { z } from 'zod';
import type { FieldErrors } from '../errors.js';

/** First message per field path ("address.line1"), the shape forms show next to each field. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || 'body';
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}
