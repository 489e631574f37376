import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fake AppSync client: every graphql() call is one subscription the test can feed or fail. */
interface FakeSubscription {
  query: string;
  next: (value: unknown) => void;
  error: (e: unknown) => void;
  closed: boolean;
}
const subscriptions: FakeSubscription[] = [];

vi.mock('aws-amplify/api', () => ({
  CONNECTION_STATE_CHANGE: 'ConnectionStateChange',
  ConnectionState: { Connected: 'Connected' },
  generateClient: () => ({
    graphql: ({ query }: { query: string }) => ({
      subscribe: (observer: { next: (v: unknown) => void; error: (e: unknown) => void }) => {
        const sub: FakeSubscription = { query, next: observer.next, error: observer.error, closed: false };
        subscriptions.push(sub);
        return { unsubscribe: () => (sub.closed = true) };
      },
    }),
  }),
}));
vi.mock('aws-amplify/utils', () => ({ Hub: { listen: () => () => undefined } }));

const { notificationFromEvent, startLiveFeed } = await import('./realtime.js');
const { LIVE_FEED_INACTIVITY_RECONNECT_MS } = await import('../../../shared/notifications/notification-schema.js');

const open = () => subscriptions.filter((s) => !s.closed);
const event = (lastUpdated: string) => ({
  data: {
    onCreateNotification: {
      practiceId: 'prc_demo',
      sk: 'NOTIFICATION#n-1#V#1',
      notificationId: 'n-1',
      notificationType: 'TASK',
      notificationStatus: 'UNREAD',
      createdAt: lastUpdated,
      lastUpdated,
    },
  },
});

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T10:00:00.000Z'));
  subscriptions.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('live feed', () => {
  it('subscribes to OnCreateNotification and OnUpdateNotification and catches up once connected', async () => {
    const onConnected = vi.fn(async () => []);
    const feed = startLiveFeed('prc_demo', { onNotification: vi.fn(), onConnected });
    expect(open().map((s) => s.query.match(/subscription (\w+)/)?.[1])).toEqual(['OnCreateNotification', 'OnUpdateNotification']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onConnected).toHaveBeenCalledTimes(1);
    feed.stop();
    expect(open()).toEqual([]);
  });

  it('reconnects after a subscription error and catches up from the last event it saw', async () => {
    const onConnected = vi.fn(async () => []);
    const onNotification = vi.fn();
    const feed = startLiveFeed('prc_demo', { onNotification, onConnected });
    await vi.advanceTimersByTimeAsync(2_000);
    open()[0].next(event('2026-01-01T10:00:01.000Z'));
    expect(onNotification).toHaveBeenCalledWith(expect.objectContaining({ notificationId: 'n-1' }), 'created');

    open()[0].error(new Error('socket closed'));
    expect(open()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(open()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onConnected).toHaveBeenCalledTimes(2);
    // The catch-up looks back from the last event (with a margin for clock differences).
    const since = Date.parse((onConnected.mock.calls[1] as unknown as [string])[0]);
    expect(since).toBeLessThanOrEqual(Date.parse('2026-01-01T10:00:01.000Z'));
    feed.stop();
  });

  it('starts again at once when the browser is back online, however long the backoff grew while offline', async () => {
    const window = new EventTarget();
    vi.stubGlobal('addEventListener', window.addEventListener.bind(window));
    vi.stubGlobal('removeEventListener', window.removeEventListener.bind(window));
    try {
      let offline = false;
      let caughtUp = 0;
      // Offline, the catch-up request fails too, so nothing resets the backoff.
      const onConnected = vi.fn(async () => {
        if (offline) throw new TypeError('Failed to fetch');
        caughtUp += 1;
        return [];
      });
      const feed = startLiveFeed('prc_demo', { onNotification: vi.fn(), onConnected });
      await vi.advanceTimersByTimeAsync(2_000);
      expect(caughtUp).toBe(1);
      offline = true;
      // Offline: each try fails and the next waits twice as long (2, 4, 8, 16 s, then 32 s).
      for (const wait of [2_000, 4_000, 8_000, 16_000]) {
        open()[0].error(new Error('network down'));
        await vi.advanceTimersByTimeAsync(wait);
      }
      open()[0].error(new Error('network down'));
      expect(open()).toEqual([]);
      offline = false;
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
      expect(open()).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(caughtUp).toBe(2);
      feed.stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reconnects after 120 s without an event, and an event resets that clock', async () => {
    const onConnected = vi.fn(async () => []);
    const feed = startLiveFeed('prc_demo', { onNotification: vi.fn(), onConnected });
    const first = open();
    await vi.advanceTimersByTimeAsync(LIVE_FEED_INACTIVITY_RECONNECT_MS - 10_000);
    first[0].next(event('2026-01-01T10:01:50.000Z'));
    await vi.advanceTimersByTimeAsync(LIVE_FEED_INACTIVITY_RECONNECT_MS - 10_000);
    expect(first.every((s) => !s.closed)).toBe(true);

    await vi.advanceTimersByTimeAsync(10_001);
    expect(first.every((s) => s.closed)).toBe(true);
    expect(open()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onConnected).toHaveBeenCalledTimes(2);
    feed.stop();
  });
});

const rawEvent = (overrides: Record<string, unknown> = {}) => ({
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
    const n = notificationFromEvent(rawEvent());
    expect(n?.data).toEqual({ from: '+15125550100', to: '+15125550199' });
    expect(n?.urgent).toBe(false);
    expect(n?.assigned).toBeNull();
    expect(n?.notificationVersion).toBe(2);
  });

  it('uses the creation time when the event has no lastUpdated', () => {
    expect(notificationFromEvent(rawEvent({ lastUpdated: null }))?.lastUpdated).toBe('2026-01-01T10:00:00.000Z');
  });

  it('drops events of an unknown type instead of placing them in a store', () => {
    expect(notificationFromEvent(rawEvent({ notificationType: 'POSTCARD' }))).toBeNull();
  });
});
