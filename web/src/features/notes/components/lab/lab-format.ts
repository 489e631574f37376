import { isApiError } from '../../../../lib/api-error.js';

export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A lab date as the practice reads it (en-US). */
export const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US');
