import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Notification } from '../../../../../shared/notifications/notification-schema.js';
import type { LiveEventKind } from '../../../lib/realtime.js';
import { followLiveNotifications } from '../api/live-notifications.js';

export interface LiveNotificationOptions {
  practiceId: string | undefined;
  /** Called for every live or caught-up notification, after the stores were updated. */
  onNotification?: (notification: Notification, kind: LiveEventKind | 'missed') => void;
}

/** Keeps the per-type stores and the unread count live for as long as the workspace is open. */
export function useLiveNotifications({ practiceId, onNotification }: LiveNotificationOptions): void {
  const queryClient = useQueryClient();
  // The workspace's lists (badges, widgets) start loading as it mounts: the feed catches up from then.
  const [mountedAt] = useState(() => new Date().toISOString());
  const callback = useRef(onNotification);
  useEffect(() => {
    callback.current = onNotification;
  }, [onNotification]);

  useEffect(() => {
    if (!practiceId) return;
    return followLiveNotifications({
      queryClient,
      practiceId,
      since: mountedAt,
      onNotification: (notification, kind) => callback.current?.(notification, kind),
    });
  }, [practiceId, queryClient, mountedAt]);
}
