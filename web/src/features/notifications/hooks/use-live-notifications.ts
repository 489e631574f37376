import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import { startLiveFeed, type LiveEventKind } from '../../../lib/realtime.js';
import { fetchNotificationsSince, placeNotifications } from '../api/notifications-api.js';

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
    const feed = startLiveFeed(practiceId, {
      onNotification: (notification, kind) => {
        placeNotifications(queryClient, [notification]);
        callback.current?.(notification, kind);
      },
      onConnected: async (since) => {
        const missed = await fetchNotificationsSince(since);
        placeNotifications(queryClient, missed);
        missed.forEach((n) => callback.current?.(n, 'missed'));
        return missed;
      },
    });
    return () => feed.stop();
  }, [practiceId, queryClient]);
}
