/**
 * Whether a write was refused by its condition: a single write's ConditionalCheckFailedException,
 * or a transaction cancelled because one of its conditions failed. Repositories turn this into
 * "not found", "already exists" or a version conflict; anything else is a real failure.
 */
export function isConditionFailure(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] } | null;
  if (e?.name === 'ConditionalCheckFailedException') return true;
  return e?.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r?.Code === 'ConditionalCheckFailed');
}
