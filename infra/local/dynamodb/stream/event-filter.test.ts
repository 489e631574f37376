import { describe, expect, it } from 'vitest';
import { NOTIFICATION_STREAM } from '../../../../functions/workers/notification-stream/subscription.js';
import { matchesAnyFilter } from './event-filter.js';

const record = (eventName: string, entityType?: string) => ({
  eventName,
  dynamodb: { NewImage: entityType ? { entityType: { S: entityType }, sk: { S: 'x' } } : undefined },
});

describe('local stream event filter', () => {
  it("passes the notification publisher exactly the records the stack's filter passes", () => {
    const filters = NOTIFICATION_STREAM.filters;
    expect(matchesAnyFilter(record('INSERT', 'NOTIFICATION'), filters)).toBe(true);
    expect(matchesAnyFilter(record('MODIFY', 'NOTIFICATION'), filters)).toBe(false);
    expect(matchesAnyFilter(record('INSERT', 'NOTIFICATION_LOG'), filters)).toBe(false);
    expect(matchesAnyFilter(record('INSERT', 'PATIENT'), filters)).toBe(false);
    expect(matchesAnyFilter(record('REMOVE'), filters)).toBe(false);
  });

  it('supports exists, prefix and anything-but, and any one of several patterns', () => {
    const event = { eventName: 'MODIFY', dynamodb: { Keys: { sk: { S: 'NOTE#1' } } } };
    expect(matchesAnyFilter(event, [{ dynamodb: { Keys: { sk: { S: [{ prefix: 'NOTE#' }] } } } }])).toBe(true);
    expect(matchesAnyFilter(event, [{ dynamodb: { OldImage: [{ exists: false }] } }])).toBe(true);
    expect(matchesAnyFilter(event, [{ eventName: [{ 'anything-but': ['MODIFY'] }] }])).toBe(false);
    expect(matchesAnyFilter(event, [{ eventName: ['INSERT'] }, { eventName: ['MODIFY'] }])).toBe(true);
    expect(matchesAnyFilter(event, [])).toBe(true);
  });

  it('refuses a rule it cannot evaluate instead of guessing', () => {
    expect(() => matchesAnyFilter({ a: 1 }, [{ a: [{ numeric: ['>', 0] }] }])).toThrow(/Unsupported filter operator numeric/);
  });
});
