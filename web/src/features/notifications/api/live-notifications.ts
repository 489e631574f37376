import type { QueryClient } from '@tanstack/react-query';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import { afterFirstScreenSettles } from '../../../lib/after-first-screen.js';
import { importWhenOnline } from '../../../lib/import-when-online.js';
import type { LiveEventKind, LiveFeed } from '../../../lib/realtime.js';
import { catchUpNotifications, placeNotifications } from './notifications-api.js';

export interface LiveNotificationsOptions {
  queryClient: QueryClient;
  practiceId: string;
  /**
   * When the lists on screen started loading: the first catch-up reads what changed since then,
   * however long the feed's code took to arrive.
   */
  since: string;
  /** Called for every live or caught-up notification, after the stores were updated. */
  onNotification?: (notification: Notification, kind: LiveEventKind | 'missed') => void;
}

/**
 * Keeps the per-type stores and the unread count live until the returned stop is called.
 *
 * The AppSync client is fetched once the first screen has settled: nothing on it waits for a live
 * event, and its code would otherwise be parsed while the screen's widgets render. What was
 * published meanwhile arrives through the first catch-up, which reads from `since`, not from when
 * the feed connected.
 * A page that went offline before the feed's code arrived fetches it when the network is back,
 * rather than staying without live updates until a reload.
 */
export function followLiveNotifications({ queryClient, practiceId, since, onNotification }: LiveNotificationsOptions): () => void {
  let feed: LiveFeed | undefined;
  const stopped = new AbortController();
  void afterFirstScreenSettles()
    .then(() => importWhenOnline(() => import('../../../lib/realtime.js'), stopped.signal))
    .then(
      ({ startLiveFeed }) => {
        if (stopped.signal.aborted) return;
        feed = startLiveFeed(
          practiceId,
          {
            onNotification: (notification, kind) => {
              placeNotifications(queryClient, [notification]);
              onNotification?.(notification, kind);
            },
            onConnected: async (from) => {
              const missed = await catchUpNotifications(queryClient, from);
              missed.forEach((n) => onNotification?.(n, 'missed'));
              return missed;
            },
          },
          { since },
        );
      },
      (error: unknown) => {
        if (stopped.signal.aborted) return;
        // A deploy replaced the chunk or the network dropped: the lists still load, only live updates wait for a reload.
        console.warn('Live notifications are unavailable', error instanceof Error ? error.message : error);
      },
    );
  return () => {
    stopped.abort();
    feed?.stop();
  };
}
