import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { COPILOT, COPILOT_MESSAGES, type CopilotPatientProfile } from '../../../../shared/ai/copilot-schema.js';
import { age, fullName } from '../../../../shared/patients/patient-derived.js';
import { Button } from '../../components/ui/button.js';
import { CloseIcon, PlusIcon } from '../../components/ui/icons.js';
import { SearchField } from '../../components/ui/search-field.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePatient } from '../../lib/patients.js';
import { runtimeConfig } from '../../lib/runtime-config.js';
import { showToast } from '../../lib/toasts.js';
import { useDebouncedValue } from '../../lib/use-debounced-value.js';
import { useConversations, useCopilotFlags } from './api/copilot-api.js';
import { useCopilotChat } from './use-copilot-chat.js';
import './copilot.css';

const MOVE_STEP_PX = 24;
const EDGE_PX = 8;

/** Spec shell §9: chat day separators and history dates are MM/DD/YYYY. */
function usDate(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
}

function initialPosition(): { x: number; y: number } {
  const width = Math.min(760, window.innerWidth - 2 * EDGE_PX);
  const height = Math.min(COPILOT.windowHeight, window.innerHeight - 2 * EDGE_PX);
  return { x: Math.max(EDGE_PX, window.innerWidth - width - 24), y: Math.max(EDGE_PX, window.innerHeight - height - 24) };
}

function clamp(p: { x: number; y: number }, el: HTMLElement | null): { x: number; y: number } {
  const w = el?.offsetWidth ?? 0;
  const h = el?.offsetHeight ?? 0;
  return {
    x: Math.min(Math.max(EDGE_PX - w + 120, p.x), window.innerWidth - 120),
    y: Math.min(Math.max(0, p.y), Math.max(0, window.innerHeight - Math.min(h, 48))),
  };
}

/** Spec shell §2.8: the draggable Copilot window (height 600) with its history panel and chat. */
export function CopilotWindow({ patientId, onClose }: { patientId: string | null; onClose: () => void }) {
  const location = useLocation();
  const flags = useCopilotFlags();
  const patientQuery = usePatient(patientId);
  const patient: CopilotPatientProfile | null = useMemo(() => {
    const p = patientQuery.data;
    return p && patientId ? { patientId, firstName: p.firstName, lastName: p.lastName, fullName: fullName(p), age: age(p) } : null;
  }, [patientQuery.data, patientId]);
  const chat = useCopilotChat({ patient, patientId, streaming: flags.data?.ai_streaming === true, entryPointPath: location.pathname });
  const title = patient ? COPILOT_MESSAGES.titleWithPatient(patient.fullName, patient.age) : COPILOT_MESSAGES.title;

  const windowRef = useRef<HTMLElement>(null);
  const [position, setPosition] = useState(initialPosition);
  const drag = useRef<{ dx: number; dy: number; id: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button, input, textarea')) return;
    drag.current = { dx: e.clientX - position.x, dy: e.clientY - position.y, id: e.pointerId };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.id !== e.pointerId) return;
    setPosition(clamp({ x: e.clientX - drag.current.dx, y: e.clientY - drag.current.dy }, windowRef.current));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  // The same move by keyboard: the handle takes the arrow keys.
  const onHandleKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const delta = { ArrowLeft: [-MOVE_STEP_PX, 0], ArrowRight: [MOVE_STEP_PX, 0], ArrowUp: [0, -MOVE_STEP_PX], ArrowDown: [0, MOVE_STEP_PX] }[e.key];
    if (!delta) return;
    e.preventDefault();
    setPosition((p) => clamp({ x: p.x + delta[0], y: p.y + delta[1] }, windowRef.current));
  };
  useEffect(() => {
    const onResize = () => setPosition((p) => clamp(p, windowRef.current));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const [historyOpen, setHistoryOpen] = useState(false);
  const [search, setSearch] = useState('');
  const keyword = useDebouncedValue(search.trim(), COPILOT.historySearchDebounceMs);
  const conversations = useConversations(patientId, keyword, historyOpen);
  useEffect(() => {
    if (conversations.error) showToast(conversations.error.message || COPILOT_MESSAGES.listFailure, { tone: 'error' });
  }, [conversations.error]);

  const [text, setText] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, COPILOT.textareaMaxHeightPx)}px`;
  }, [text]);
  useEffect(() => textarea.current?.focus(), []);

  const submit = useCallback(async () => {
    const value = text;
    if (value.trim() === '' || chat.status === 'submitted' || chat.status === 'streaming') return;
    setText('');
    const ok = await chat.send(value);
    // A failed send keeps what was typed, unless something new was typed since.
    if (!ok) setText((now) => (now === '' ? value : now));
  }, [chat, text]);

  // Spec shell §2.8: follow the bottom when within 64 px of it, or right after sending.
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const olderAnchor = useRef<number | null>(null);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= COPILOT.nearBottomPx;
  };
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (olderAnchor.current !== null) {
      // Older messages went in above: keep the ones being read where they were.
      el.scrollTop = el.scrollHeight - olderAnchor.current;
      olderAnchor.current = null;
      return;
    }
    if (nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [chat.state.items]);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && chat.sentAt) {
      el.scrollTop = el.scrollHeight;
      nearBottom.current = true;
    }
  }, [chat.sentAt]);
  useEffect(() => {
    // Spec shell §9: load-more margin 80 px, after 300 ms at the top.
    const el = scroller.current;
    if (!el || !chat.state.hasOlder) return;
    let timer: number | undefined;
    const check = () => {
      window.clearTimeout(timer);
      if (el.scrollTop > COPILOT.loadMoreMargins[0]) return;
      timer = window.setTimeout(() => {
        if (el.scrollTop > COPILOT.loadMoreMargins[1]) return;
        olderAnchor.current = el.scrollHeight - el.scrollTop;
        void chat.loadOlder().then((added) => {
          if (!added) olderAnchor.current = null;
        });
      }, COPILOT.loadMoreDelayMs);
    };
    el.addEventListener('scroll', check);
    check();
    return () => {
      el.removeEventListener('scroll', check);
      window.clearTimeout(timer);
    };
  }, [chat, chat.state.hasOlder]);

  const placeholder = patient ? COPILOT_MESSAGES.placeholderWithPatient(patient.fullName) : COPILOT_MESSAGES.placeholder;
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  // What the stack says about its model, known before anything is sent ('' = none configured).
  const config = runtimeConfig();
  const noModel = config.copilotModel === '';
  const model = chat.model ?? (config.copilotModel ? { name: config.copilotModel, local: config.local } : null);
  const list = conversations.data?.conversations ?? [];

  return (
    <section
      ref={windowRef}
      className="tw-copilot"
      role="dialog"
      aria-modal="false"
      aria-labelledby="tw-copilot-title"
      style={{ left: position.x, top: position.y, height: Math.min(COPILOT.windowHeight, window.innerHeight - 2 * EDGE_PX) }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="tw-copilot__header" onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp}>
        <button type="button" className="tw-copilot__handle" aria-label="Move the Copilot window (arrow keys)" onKeyDown={onHandleKey}>
          <span aria-hidden="true">⠿</span>
        </button>
        <h2 id="tw-copilot-title" className="tw-copilot__title">
          {title}
        </h2>
        {model?.local ? <span className="tw-copilot__local">{model.name}</span> : null}
        <Button size="sm" variant="quiet" aria-label="New chat" onPress={chat.newChat} isDisabled={busy}>
          <PlusIcon />
        </Button>
        <Button
          size="sm"
          variant="quiet"
          aria-label="Chat history"
          aria-pressed={historyOpen}
          aria-expanded={historyOpen}
          aria-controls="tw-copilot-history"
          onPress={() => setHistoryOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span>
        </Button>
        <Button size="sm" variant="quiet" aria-label="Close Copilot" onPress={onClose}>
          <CloseIcon />
        </Button>
      </div>
      <div className="tw-copilot__body">
        {historyOpen ? (
          <aside id="tw-copilot-history" className="tw-copilot__history" style={{ width: COPILOT.historyPanelWidth }} aria-label="Chat history">
            <SearchField label="Search" placeholder={COPILOT_MESSAGES.searchPlaceholder} value={search} onChange={setSearch} className="tw-copilot__search" />
            <h3 className="tw-copilot__recent">{COPILOT_MESSAGES.recent}</h3>
            {conversations.isPending ? (
              <Spinner label="Loading conversations" />
            ) : list.length === 0 ? (
              <p className="tw-copilot__empty">{COPILOT_MESSAGES.noConversations}</p>
            ) : (
              <ul className="tw-copilot__history-list">
                {list.map((c) => {
                  const current = c.conversationId === chat.state.conversationId;
                  return (
                    <li key={c.conversationId}>
                      <button
                        type="button"
                        className="tw-copilot__history-entry"
                        aria-current={current ? 'true' : undefined}
                        onClick={() => {
                          if (!current) void chat.openConversation(c.conversationId).catch(() => showToast(COPILOT_MESSAGES.listFailure, { tone: 'error' }));
                        }}
                      >
                        {c.summary || usDate(c.createdAt)}
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </aside>
        ) : null}
        <div className="tw-copilot__chat">
          {noModel ? (
            <p className="tw-copilot__no-model" role="note">
              {COPILOT_MESSAGES.noModel}
            </p>
          ) : null}
          <div ref={scroller} className="tw-copilot__messages" onScroll={onScroll} role="log" aria-live="polite" aria-label="Copilot conversation" tabIndex={0}>
            {chat.loadingOlder ? <Spinner label="Loading older messages" /> : null}
            {chat.state.items.map((m) => (
              <div
                key={m.ident}
                className={[
                  'tw-copilot__message',
                  `tw-copilot__message--${m.role}`,
                  m.local === 'context' ? 'tw-copilot__message--context' : '',
                  m.failed ? 'tw-copilot__message--failed' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
              >
                <span className="tw-visually-hidden">{m.role === 'user' ? 'You: ' : 'Copilot: '}</span>
                {m.pending ? (
                  <span className="tw-copilot__skeleton" role="status" aria-label="Copilot is answering">
                    <span />
                    <span />
                    <span />
                  </span>
                ) : (
                  m.content
                )}
              </div>
            ))}
          </div>
          <form
            className="tw-copilot__composer"
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <label htmlFor="tw-copilot-input" className="tw-visually-hidden">
              Message Copilot
            </label>
            <textarea
              id="tw-copilot-input"
              ref={textarea}
              className="tw-copilot__input"
              rows={1}
              value={text}
              placeholder={placeholder}
              maxLength={20_000}
              disabled={noModel}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                // Spec shell §2.8: Enter sends, Shift+Enter is a new line.
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void submit();
                }
              }}
            />
            <Button type="submit" variant="primary" isDisabled={noModel || busy || text.trim() === ''}>
              Send
            </Button>
          </form>
        </div>
      </div>
    </section>
  );
}
