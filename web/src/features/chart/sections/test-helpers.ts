import { zodFieldErrors } from '../../../lib/zod-field-errors.js';

/** The field messages a section form shows for a body, as the item form computes them on Save. */
export function errorsOf(def: { schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } } }, body: Record<string, unknown>) {
  const result = def.schema.safeParse(body);
  return result.success ? {} : zodFieldErrors(result.error as never);
}
