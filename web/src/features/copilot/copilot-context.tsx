import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export interface CopilotApi {
  /** Opens the chat, with the patient in context when one is given. */
  openCopilot(patientId: string | null): void;
}

const CopilotContext = createContext<CopilotApi | null>(null);

/** The window's code (chat, history, streaming) arrives when Copilot is first opened. */
const CopilotWindow = lazy(() => import('./copilot-window.js').then((m) => ({ default: m.CopilotWindow })));

interface OpenState {
  patientId: string | null;
  /** A new opening is a fresh window: state never carries over. */
  session: number;
}

/**
 * Holds the Copilot window above the workspace's screens. Spec shell §2.8: it closes and resets on
 * every route change.
 */
export function CopilotProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<OpenState | null>(null);
  const location = useLocation();
  const opener = useRef<Element | null>(null);
  const openCopilot = useCallback((patientId: string | null) => {
    opener.current = document.activeElement;
    setOpen((prev) => ({ patientId, session: (prev?.session ?? 0) + 1 }));
  }, []);
  const close = useCallback(() => {
    setOpen(null);
    const el = opener.current;
    if (el instanceof HTMLElement && el.isConnected) el.focus();
  }, []);
  const path = location.pathname;
  const openedAt = useRef(path);
  useEffect(() => {
    if (openedAt.current !== path) {
      openedAt.current = path;
      setOpen(null);
    }
  }, [path]);
  const api = useMemo(() => ({ openCopilot }), [openCopilot]);
  return (
    <CopilotContext.Provider value={api}>
      {children}
      {open ? (
        <Suspense fallback={null}>
          <CopilotWindow key={open.session} patientId={open.patientId} onClose={close} />
        </Suspense>
      ) : null}
    </CopilotContext.Provider>
  );
}

export function useCopilot(): CopilotApi {
  const api = useContext(CopilotContext);
  // Spec shell §8: copilot context misuse throws.
  if (!api) throw new Error('useCopilot must be used inside CopilotProvider');
  return api;
}
