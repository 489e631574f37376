import { describe, expect, it } from 'vitest';
import { isConditionFailure } from './condition-failure.js';

describe('isConditionFailure', () => {
  it('recognises a refused condition on a single write and inside a cancelled transaction', () => {
    expect(isConditionFailure({ name: 'ConditionalCheckFailedException' })).toBe(true);
    expect(isConditionFailure({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] })).toBe(
      true,
    );
  });

  it('leaves every other failure to surface as one', () => {
    expect(isConditionFailure({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'TransactionConflict' }, null] })).toBe(false);
    expect(isConditionFailure({ name: 'ProvisionedThroughputExceededException' })).toBe(false);
    expect(isConditionFailure(new Error('socket hang up'))).toBe(false);
    expect(isConditionFailure(null)).toBe(false);
  });
});
