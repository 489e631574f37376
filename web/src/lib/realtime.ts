import { CONNECTION_STATE_CHANGE, ConnectionState, generateClient } from 'aws-amplify/api';
import { Amplify } from 'aws-amplify';
import { Hub } from 'aws-amplify/utils';
import { installLocalRealtimeRewrite } from './local-realtime.js';
import { LIVE_FEED_INACTIVITY_RECONNECT_MS, Notification } from '../../../shared/notifications/notification-schema.js';

const FIELDS = `practiceId sk notificationId notificationVersion isLatestVersion sourceId relatedTo notificationType
  notificationStatus assigned previouslyAssigned author comments text urgent patientId createdAt dueOn lastUpdated
  lastUpdatedBy data`;

const ON_CREATE = /* GraphQL */ `
  subscription OnCreateNotification($practiceId: String!) {
    onCreateNotification(practiceId: $practiceId) { ${FIELDS} }
  }
`;
const ON_UPDATE = /* GraphQL */ `
  subscription OnUpdateNotification($practiceId: String!) {
    onUpdateNotification(practiceId: $practiceId) { ${FIELDS} }
  }
`;

/**
 * The catch-up query looks back a little before the last event it saw: the browser's and the
 * server's clocks differ, and replaying an event twice is harmless (stores merge by version).
 */
export const CATCH_UP_MARGIN_MS = 30_000;

const SUBSCRIBE_SETTLE_MS = 1_500;

export type LiveEventKind = 'created' | 'updated';

export interface LiveFeedHandlers {
  onNotification: (notification: Notification, kind: LiveEventKind) => void;
  /**
   * Runs on every (re)connect with the time of the last event seen, so the caller can fetch what
   * was published while the feed was away (GET /v1/notifications?since=).
   */
  onConnected: (since: string) => Promise<readonly Notification[]>;
}

export interface LiveFeedOptions {
  inactivityMs?: number;
  /**
   * When the lists on screen were read, if before the feed starts: the first catch-up reads what
   * changed since then, however long the feed's code took to arrive.
   */
  since?: string;
}

export interface LiveFeed {
  stop(): void;
}

/** AWSJSON arrives as a string; the stores hold the parsed object. */
export function notificationFromEvent(raw: Record<string, unknown>): Notification | null {
  const json = (value: unknown) => {
    if (typeof value !== 'string') return value ?? null;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  };
  const parsed = Notification.safeParse({
    sourceId: null,
    relatedTo: null,
    assigned: null,
    previouslyAssigned: null,
    author: null,
    text: null,
    patientId: null,
    dueOn: null,
    lastUpdatedBy: null,
    urgent: false,
    notificationVersion: 1,
    isLatestVersion: true,
    ...Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== undefined)),
    lastUpdated: raw.lastUpdated ?? raw.createdAt,
    comments: json(raw.comments),
    data: json(raw.data),
  });
  return parsed.success ? parsed.data : null;
}

type Observable = { subscribe(o: { next(v: unknown): void; error(e: unknown): void }): { unsubscribe(): void } };

/**
 * Live notifications of one practice over AppSync (spec shell §4): onCreate and onUpdate filtered
 * by practiceId. It reconnects on a subscription error or after 120 s without an event, and on
 * every connect asks the caller to catch up from the last event seen so nothing is lost.
 */
export function startLiveFeed(practiceId: string, handlers: LiveFeedHandlers, options: LiveFeedOptions = {}): LiveFeed {
  const inactivityMs = options.inactivityMs ?? LIVE_FEED_INACTIVITY_RECONNECT_MS;
  // The local runtime's socket is plain ws on the app's origin; set up with the feed, which is the
  // only thing that opens it, so the first screen does not carry the rewrite.
  const endpoint = Amplify.getConfig().API?.GraphQL?.endpoint;
  if (endpoint) installLocalRealtimeRewrite(endpoint);
  const client = generateClient();
  let lastSeen = options.since ?? new Date().toISOString();
  let subscriptions: { unsubscribe(): void }[] = [];
  let inactivity: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let failures = 0;

  const seen = (n: Notification) => {
    if (n.lastUpdated > lastSeen) lastSeen = n.lastUpdated;
  };

  const catchUp = () => {
    const since = new Date(Date.parse(lastSeen) - CATCH_UP_MARGIN_MS).toISOString();
    handlers
      .onConnected(since)
      .then((missed) => {
        failures = 0;
        missed.forEach(seen);
      })
      .catch(() => undefined);
  };

  const armInactivity = () => {
    clearTimeout(inactivity);
    inactivity = setTimeout(() => reconnect(0), inactivityMs);
  };

  const teardown = () => {
    subscriptions.forEach((s) => s.unsubscribe());
    subscriptions = [];
  };

  const subscribe = () => {
    if (stopped) return;
    const listen = (query: string, field: string, kind: LiveEventKind) =>
      (client.graphql({ query, variables: { practiceId } }) as unknown as Observable).subscribe({
        next: (value) => {
          armInactivity();
          const raw = (value as { data?: Record<string, Record<string, unknown> | null> }).data?.[field];
          const notification = raw ? notificationFromEvent(raw) : null;
          if (!notification) return;
          seen(notification);
          handlers.onNotification(notification, kind);
        },
        error: () => {
          failures += 1;
          // Back off while the endpoint is down, up to a minute, then keep trying.
          reconnect(Math.min(60_000, 1_000 * 2 ** Math.min(failures, 6)));
        },
      });
    subscriptions = [listen(ON_CREATE, 'onCreateNotification', 'created'), listen(ON_UPDATE, 'onUpdateNotification', 'updated')];
    armInactivity();
    // A resubscription over a socket that stayed open reports no new connection state, so the
    // catch-up also runs once the subscriptions have had time to start.
    clearTimeout(settle);
    settle = setTimeout(catchUp, SUBSCRIBE_SETTLE_MS);
  };

  function reconnect(delayMs: number) {
    teardown();
    clearTimeout(retry);
    if (stopped) return;
    retry = setTimeout(subscribe, delayMs);
  }

  const stopHub = Hub.listen('api', ({ payload }) => {
    if (payload.event !== CONNECTION_STATE_CHANGE) return;
    const state = (payload.data as { connectionState?: string }).connectionState;
    if (state === ConnectionState.Connected) catchUp();
  });

  // Back online, start again at once: a backoff grown while offline would otherwise hold the
  // catch-up back for up to a minute.
  const onOnline = () => {
    failures = 0;
    reconnect(0);
  };
  globalThis.addEventListener?.('online', onOnline);

  subscribe();
  return {
    stop() {
      stopped = true;
      globalThis.removeEventListener?.('online', onOnline);
      stopHub();
      clearTimeout(inactivity);
      clearTimeout(retry);
      clearTimeout(settle);
      teardown();
    },
  };
}
