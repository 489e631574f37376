/**
 * Length limits every request schema uses, so no client value reaches a DynamoDB key (1,024 bytes
 * per sort key) or an item (400 KB) unbounded. An id is a key part; text is stored in an item.
 */
export const LIMITS = {
  /** Ids the server generated (uuids, 'pat-0001') or a Cognito sub. */
  id: 128,
  /** A short label or single-line field (names, subjects, addresses). */
  shortText: 500,
  /** A note's text or formatted HTML: well under the 400 KB item limit together. */
  noteText: 150_000,
  /** A file key as the client names it (folder/name). */
  fileKey: 512,
} as const;

/** Bytes of a value as stored (its JSON in UTF-8), for open-ended objects whose fields are not listed. */
export function jsonSize(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value ?? null)).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export const OPEN_DATA_MAX = 20_000;
export const openDataMessage = (label: string, max: number) => `${label} is too large (at most ${max} bytes)`;
