import type { z } from '../../../shared/zod.js';
import { ValidationError, type FieldErrors } from '../errors.js';

/** First message per field path ("address.line1"), the shape forms show next to each field; `root` names the whole value. */
export function zodFieldErrors(error: z.core.$ZodError, root = 'body'): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || root;
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}

/**
 * The parsed value, or a 400 whose message is the first field's ("name: Name is required", or the
 * bare message when the whole value is wrong) and whose fieldErrors carry every field's first message.
 */
export function parseOrThrow<T>(schema: z.ZodMiniType<T, unknown>, value: unknown, where = 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fieldErrors = zodFieldErrors(result.error, where);
  const [path, message] = Object.entries(fieldErrors)[0] ?? [where, 'is invalid'];
  throw new ValidationError(path === where ? message : `${path}: ${message}`, fieldErrors);
}
