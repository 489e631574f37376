import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import type { Notification } from '../../../shared/notifications/notification-schema.js';
import { announcementFor } from '../features/notifications/announce.js';
import { communicationUnread, useUnreadCount } from '../features/notifications/api/notifications-api.js';
import { useLiveNotifications } from '../features/notifications/hooks/use-live-notifications.js';
import { PaletteButton, usePaletteShortcut } from '../features/palette/components/palette-button.js';
import { AppLayout } from '../features/shell/components/app-layout.js';
import { RESOURCE_LINKS } from '../features/shell/resources.js';
import { useCurrentUser, usePracticeMetadata } from '../lib/practice.js';
import type { LiveEventKind } from '../lib/realtime.js';
import { showToast } from '../lib/toasts.js';
import { refreshTasks, useMyUnreadTaskCount } from '../features/tasks/api/tasks-api.js';
import { usePaletteInteractions } from './palette-interactions.js';

/** The palette's code arrives when it is first opened (Ctrl+K or the Search button). */
const CommandPalette = lazy(() => import('../features/palette/components/command-palette.js').then((m) => ({ default: m.CommandPalette })));

const HELP_HREF = RESOURCE_LINKS.find((link) => link.id === 'help')?.href ?? RESOURCE_LINKS[0].href;

/** The shell with the workspace around it: command palette, live notifications and menu badges. */
export function WorkspaceLayout() {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [paletteUsed, setPaletteUsed] = useState(false);
  if (paletteOpen && !paletteUsed) setPaletteUsed(true);
  const togglePalette = useCallback(() => setPaletteOpen((open) => !open), []);
  usePaletteShortcut(togglePalette);
  const interactions = usePaletteInteractions();

  const practice = usePracticeMetadata();
  const me = useCurrentUser().data?.userId;
  const unread = useUnreadCount();
  const myTasks = useMyUnreadTaskCount(me);
  const queryClient = useQueryClient();
  const onNotification = useCallback(
    (notification: Notification, kind: LiveEventKind | 'missed') => {
      if (notification.notificationType === 'TASK') refreshTasks(queryClient);
      const announcement = announcementFor(notification, kind, me);
      if (announcement) showToast(announcement.title, { description: announcement.description });
    },
    [me, queryClient],
  );
  useLiveNotifications({ practiceId: practice.data?.practiceId, onNotification });

  return (
    <AppLayout badges={{ communication: communicationUnread(unread.data), tasks: myTasks.data ?? 0 }} search={<PaletteButton onPress={() => setPaletteOpen(true)} />}>
      {paletteUsed ? (
        <Suspense fallback={null}>
          <CommandPalette isOpen={paletteOpen} onOpenChange={setPaletteOpen} helpHref={HELP_HREF} interactions={interactions} />
        </Suspense>
      ) : null}
    </AppLayout>
  );
}
