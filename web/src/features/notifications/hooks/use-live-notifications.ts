import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import { afterFirstScreen } from '../../../lib/after-first-screen.js';
import { importWhenOnline } from '../../../lib/import-when-online.js';
import type { LiveEventKind, LiveFeed } from '../../../lib/realtime.js';
import { catchUpNotifications, placeNotifications } from '../api/notifications-api.js';

export interface LiveNotificationOptions {
  practiceId: string | undefined;
  /** Called for every live or caught-up notification, after the stores were updated. */
  onNotification?: (notification: Notification, kind: LiveEventKind | 'missed') => void;
}

/** Keeps the per-type stores and the unread count live for as long as the workspace is open. */
export function useLiveNotifications({ practiceId, onNotification }: LiveNotificationOptions): void {
  const queryClient = useQueryClient();
  const callback = useRef(onNotification);
  useEffect(() => {
    callback.current = onNotification;
  }, [onNotification]);

  useEffect(() => {
    if (!practiceId) return;
    // The AppSync client is fetched once the first screen is up: nothing on it waits for a live
    // event, and what was published meanwhile arrives through the catch-up on connect.
    // A page that went offline before the feed's code arrived fetches it when the network is back,
    // rather than staying without live updates until a reload.
    let feed: LiveFeed | undefined;
    const unmounted = new AbortController();
    void afterFirstScreen()
      .then(() => importWhenOnline(() => import('../../../lib/realtime.js'), unmounted.signal))
      .then(
        ({ startLiveFeed }) => {
          if (unmounted.signal.aborted) return;
          feed = startLiveFeed(practiceId, {
            onNotification: (notification, kind) => {
              placeNotifications(queryClient, [notification]);
              callback.current?.(notification, kind);
            },
            onConnected: async (since) => {
              const missed = await catchUpNotifications(queryClient, since);
              missed.forEach((n) => callback.current?.(n, 'missed'));
              return missed;
            },
          });
        },
        (error: unknown) => {
          if (unmounted.signal.aborted) return;
          // A deploy replaced the chunk or the network dropped: the lists still load, only live updates wait for a reload.
          console.warn('Live notifications are unavailable', error instanceof Error ? error.message : error);
        },
      );
    return () => {
      unmounted.abort();
      feed?.stop();
    };
  }, [practiceId, queryClient]);
}
