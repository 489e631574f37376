import * as z from '../../../shared/zod.js';

/** Text an item may hold as null or empty (a field cleared, or written so by an older version): both read as not set. */
export const optionalStoredText = z.optional(
  z.pipe(
    z.nullable(z.string()),
    z.transform((v) => v || undefined),
  ),
);
