import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { Notification } from '../../../shared/notifications/notification-schema.js';
import { communicationUnread, useUnreadCount } from '../features/notifications/api/notifications-api.js';
import { useLiveNotifications } from '../features/notifications/hooks/use-live-notifications.js';
import { PaletteButton, usePaletteShortcut } from '../features/palette/components/palette-button.js';
import { AppLayout } from '../features/shell/components/app-layout.js';
import { MenuBadgeCountsContext } from '../features/shell/menu-badge-counts.js';
import { CopilotProvider } from '../features/copilot/copilot-context.js';
import { useCurrentUser, usePracticeMetadata } from '../lib/practice.js';
import type { LiveEventKind } from '../lib/realtime.js';
import { refreshMessaging } from '../lib/messaging.js';
import { refreshLabResults } from '../lib/labs.js';
import { callCountKey, useCallCount } from '../lib/phone-calls.js';
import { showToast } from '../lib/toasts.js';
import { useFirstScreenSettled } from '../lib/use-first-screen-settled.js';
import { refreshTasks, useMyUnreadTaskCount } from '../features/tasks/api/task-badge.js';

/** The palette's code arrives when it is first opened (Ctrl+K or the Search button). */
const WorkspacePalette = lazy(() => import('./workspace-palette.js').then((m) => ({ default: m.WorkspacePalette })));

/** The shell with the workspace around it: command palette, live notifications and menu badges. */
export function WorkspaceLayout() {
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [paletteUsed, setPaletteUsed] = useState(false);
  if (paletteOpen && !paletteUsed) setPaletteUsed(true);
  const togglePalette = useCallback(() => setPaletteOpen((open) => !open), []);
  usePaletteShortcut(togglePalette);
  // The same element on every render, so opening the palette leaves the top bar as it is.
  const search = useMemo(() => <PaletteButton onPress={() => setPaletteOpen(true)} />, []);

  return (
    <CopilotProvider>
      <WorkspaceFeeds>
        <AppLayout search={search}>
          {paletteUsed ? (
            <Suspense fallback={null}>
              <WorkspacePalette isOpen={paletteOpen} onOpenChange={setPaletteOpen} />
            </Suspense>
          ) : null}
        </AppLayout>
      </WorkspaceFeeds>
    </CopilotProvider>
  );
}

/**
 * The live notifications and the menu badges' counts. Their answers re-render this component and
 * the badges reading the counts; the shell comes in as `children`, so React leaves it as it is.
 * The badges count once the first screen has settled: an answer is a blocking render (react-query's
 * store updates are synchronous), and one that lands while a screen such as the chart renders in a
 * render React may interrupt makes React throw that work away and start the screen over.
 */
function WorkspaceFeeds({ children }: { children: ReactNode }) {
  const practice = usePracticeMetadata();
  const me = useCurrentUser().data?.userId;
  const counting = useFirstScreenSettled();
  const unread = useUnreadCount({ subscribed: counting });
  const myTasks = useMyUnreadTaskCount(me, { subscribed: counting });
  const calls = useCallCount({ enabled: !!me, subscribed: counting });
  const queryClient = useQueryClient();
  const onNotification = useCallback(
    (notification: Notification, kind: LiveEventKind | 'missed') => {
      if (notification.notificationType === 'TASK') refreshTasks(queryClient);
      // An inbound text or a delivery receipt: the open chat, the hub and the scheduled rows follow it.
      if (notification.notificationType === 'SMS') refreshMessaging(queryClient);
      if (notification.notificationType === 'PHONE_CALL') void queryClient.invalidateQueries({ queryKey: callCountKey });
      // Results came in: the chart's lab row leaves "Sent" and the review lists take it, without a reload.
      if (notification.notificationType === 'LAB_RESULTS')
        refreshLabResults(queryClient, typeof notification.data?.noteId === 'string' ? notification.data.noteId : (notification.sourceId ?? undefined));
      // Comes with the first live event; the module resolves in call order, so toasts keep theirs.
      void import('../features/notifications/announce.js').then(({ announcementFor }) => {
        const announcement = announcementFor(notification, kind, me);
        if (announcement) showToast(announcement.title, { description: announcement.description });
      });
    },
    [me, queryClient],
  );
  useLiveNotifications({ practiceId: practice.data?.practiceId, onNotification });

  const communication = communicationUnread(unread.data, calls.data);
  const tasks = myTasks.data ?? 0;
  const badges = useMemo(() => ({ communication, tasks }), [communication, tasks]);
  return <MenuBadgeCountsContext.Provider value={badges}>{children}</MenuBadgeCountsContext.Provider>;
}
