import { Outlet, useHref, useNavigate, type NavigateOptions } from 'react-router-dom';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { NoteWindowLayer } from '../features/notes/windows/note-window-layer.js';
import { NoteExtrasProvider } from '../features/notes/windows/note-extras.js';
import { NoteWindowsProvider } from '../features/notes/windows/note-windows-context.js';
import { IdleLock } from '../features/shell/components/idle-lock.js';
import { NoteScribeSlot } from './note-scribe-slot.js';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/**
 * Lets react-aria-components links and menu items navigate through the hash router. Note windows
 * live here, above every route, so notes of several patients stay open while the user moves around.
 */
export function RootLayout() {
  const navigate = useNavigate();
  return (
    <AriaRouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
      <NoteWindowsProvider>
        <NoteExtrasProvider value={NoteScribeSlot}>
          <Outlet />
          <NoteWindowLayer />
          <IdleLock />
        </NoteExtrasProvider>
      </NoteWindowsProvider>
    </AriaRouterProvider>
  );
}
