import { describe, expect, it } from 'vitest';
import { notificationFromEvent } from './realtime.js';

const event = (overrides: Record<string, unknown> = {}) => ({
  practiceId: 'prc_demo',
  sk: 'NOTIFICATION#n-1#V#1',
  notificationId: 'n-1',
  notificationVersion: 2,
  isLatestVersion: true,
  notificationType: 'SMS',
  notificationStatus: 'UNREAD',
  createdAt: '2026-01-01T10:00:00.000Z',
  lastUpdated: '2026-01-01T10:05:00.000Z',
  data: '{"from":"+15125550100","to":"+15125550199"}',
  comments: null,
  urgent: null,
  ...overrides,
});

describe('live notification events', () => {
  it('parses the AWSJSON data and fills the fields the subscription left empty', () => {
    const n = notificationFromEvent(event());
    expect(n?.data).toEqual({ from: '+15125550100', to: '+15125550199' });
    expect(n?.urgent).toBe(false);
    expect(n?.assigned).toBeNull();
    expect(n?.notificationVersion).toBe(2);
  });

  it('uses the creation time when the event has no lastUpdated', () => {
    expect(notificationFromEvent(event({ lastUpdated: null }))?.lastUpdated).toBe('2026-01-01T10:00:00.000Z');
  });

  it('drops events of an unknown type instead of placing them in a store', () => {
    expect(notificationFromEvent(event({ notificationType: 'POSTCARD' }))).toBeNull();
  });
});
