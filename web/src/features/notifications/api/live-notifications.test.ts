import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import type { ApiRequest } from '../../../lib/api-client.js';

/** A fake AppSync client: every graphql() call is one open subscription. */
const subscriptions: { query: string; next: (value: unknown) => void }[] = [];
vi.mock('aws-amplify/api', () => ({
  CONNECTION_STATE_CHANGE: 'ConnectionStateChange',
  ConnectionState: { Connected: 'Connected' },
  generateClient: () => ({
    graphql: ({ query }: { query: string }) => ({
      subscribe: (observer: { next: (value: unknown) => void }) => {
        subscriptions.push({ query, next: observer.next });
        return { unsubscribe: () => undefined };
      },
    }),
  }),
}));
vi.mock('aws-amplify/utils', () => ({ Hub: { listen: () => () => undefined } }));

/** The server's notifications; `GET /v1/notifications?since=` answers those changed since then. */
let published: Notification[] = [];
const catchUps: string[] = [];
vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: async (request: ApiRequest) => {
    const since = String(request.query?.since);
    catchUps.push(since);
    return { notifications: published.filter((n) => n.lastUpdated >= since), complete: true };
  },
}));

/** The first screen settles when the test says so. */
let settle: () => void = () => undefined;
let settled = new Promise<void>(() => undefined);
vi.mock('../../../lib/after-first-screen.js', () => ({ afterFirstScreen: () => settled, afterFirstScreenSettles: () => settled }));

// Loaded once here, so the feed's own import of it resolves at once under fake timers.
await import('../../../lib/realtime.js');
const { followLiveNotifications } = await import('./live-notifications.js');
const { notificationKeys } = await import('./notifications-api.js');

function aDraft(id: string, lastUpdated: string): Notification {
  return {
    practiceId: 'prc_demo',
    sk: `NOTIFICATION#${id}#V#1`,
    notificationId: id,
    notificationVersion: 1,
    isLatestVersion: true,
    sourceId: null,
    relatedTo: null,
    notificationType: 'DRAFT',
    notificationStatus: 'UNREAD',
    assigned: 'usr-employee',
    previouslyAssigned: null,
    author: null,
    comments: null,
    text: `Draft ${id}`,
    urgent: false,
    patientId: null,
    createdAt: lastUpdated,
    dueOn: null,
    lastUpdated,
    lastUpdatedBy: null,
    data: null,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T10:00:00.000Z'));
  subscriptions.length = 0;
  catchUps.length = 0;
  settled = new Promise<void>((resolve) => (settle = resolve));
});
afterEach(() => vi.useRealTimers());

describe('live notifications held until the first screen settles', () => {
  it('shows a draft assigned after the lists were read but long before the feed subscribed (My Drafts on /home)', async () => {
    const client = new QueryClient();
    const before = aDraft('d-before', '2026-01-01T09:50:00.000Z');
    published = [before];
    client.setQueryData(notificationKeys.store('DRAFT'), [before]);
    const shown: [string, string][] = [];
    const stop = followLiveNotifications({
      queryClient: client,
      practiceId: 'prc_demo',
      since: new Date().toISOString(),
      onNotification: (n, kind) => shown.push([n.notificationId, kind]),
    });

    // A minute after the lists were read, a draft is assigned; no feed is listening yet.
    await vi.advanceTimersByTimeAsync(60_000);
    published.push(aDraft('d-early', '2026-01-01T10:01:00.000Z'));
    // The first screen (on a slow phone, or a feed whose code waited for the network) settles a minute later.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(subscriptions).toEqual([]);
    settle();
    await vi.advanceTimersByTimeAsync(2_000);

    expect(subscriptions.map((s) => s.query.match(/subscription (\w+)/)?.[1])).toEqual(['OnCreateNotification', 'OnUpdateNotification']);
    // The first catch-up reads from when the lists were read (less the clock margin), not from when the feed connected.
    expect(catchUps).toEqual(['2026-01-01T09:59:30.000Z']);
    expect(shown).toEqual([['d-early', 'missed']]);
    expect(
      client
        .getQueryData<Notification[]>(notificationKeys.store('DRAFT'))
        ?.map((n) => n.notificationId)
        .sort(),
    ).toEqual(['d-before', 'd-early']);
    stop();
  });

  it('loads no live feed when the workspace closes before its first screen settled', async () => {
    const stop = followLiveNotifications({ queryClient: new QueryClient(), practiceId: 'prc_demo', since: new Date().toISOString() });
    stop();
    settle();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(subscriptions).toEqual([]);
    expect(catchUps).toEqual([]);
  });
});
