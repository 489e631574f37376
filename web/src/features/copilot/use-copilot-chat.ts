import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import {
  COPILOT_MESSAGES,
  type CopilotModelLabel,
  type CopilotPatientProfile,
  type CopilotSendStatus,
  type CopilotStreamEvent,
} from '../../../../shared/ai/copilot-schema.js';
import { showToast } from '../../lib/toasts.js';
import { canSend, itemsToAdd, outgoingMessages, type ChatItem } from './chat-rules.js';
import { copilotKeys, fetchMessages, sendConversation, streamConversation, type SendInput } from './api/copilot-api.js';

export type { ChatItem };

const GREETING: ChatItem = { ident: 'greeting', role: 'assistant', content: COPILOT_MESSAGES.greeting, local: 'greeting' };

export const newConversationId = () => `conv-${crypto.randomUUID()}`;

interface ChatState {
  conversationId: string;
  /** No message was sent in it yet: the next send creates it. */
  isNew: boolean;
  items: ChatItem[];
  /** Server messages loaded so far (the offset of the next older page). */
  loaded: number;
  hasOlder: boolean;
  contextInjected: boolean;
}

const fresh = (conversationId: string): ChatState => ({ conversationId, isNew: true, items: [GREETING], loaded: 0, hasOlder: false, contextInjected: false });

export interface CopilotChat {
  state: ChatState;
  status: CopilotSendStatus;
  model: CopilotModelLabel | null;
  /** Bumped on each send, so the view scrolls to the bottom after the user's own message. */
  sentAt: number;
  send(text: string): Promise<boolean>;
  newChat(): void;
  openConversation(conversationId: string): Promise<void>;
  loadOlder(): Promise<boolean>;
  loadingOlder: boolean;
}

/** Spec shell §4 Copilot send status: ready → submitted → streaming (or direct) → ready; failure → error. */
export function useCopilotChat(options: {
  patient: CopilotPatientProfile | null;
  patientId: string | null;
  streaming: boolean;
  entryPointPath: string;
}): CopilotChat {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ChatState>(() => fresh(newConversationId()));
  const [status, setStatus] = useState<CopilotSendStatus>('ready');
  const statusRef = useRef(status);
  statusRef.current = status;
  const [model, setModel] = useState<CopilotModelLabel | null>(null);
  const [sentAt, setSentAt] = useState(0);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const busy = useRef(false);
  const stateRef = useRef(state);
  stateRef.current = state;

  const update = (fn: (s: ChatState) => ChatState) => setState((s) => fn(s));

  const send = useCallback(
    async (text: string): Promise<boolean> => {
      // Spec shell §4/§5: ignored while a reply is under way, and when blank.
      if (busy.current || !canSend(statusRef.current, text)) return false;
      busy.current = true;
      const current = stateRef.current;
      const conversationId = current.conversationId;
      const now = Date.now();
      const added = itemsToAdd({ isNew: current.isNew, contextInjected: current.contextInjected, patient: options.patient, conversationId, text, now });
      const pendingId = `a-${now}`;
      const outgoing = outgoingMessages([...current.items, ...added]);
      update((s) => ({
        ...s,
        contextInjected: s.contextInjected || added.length > 1,
        items: [...s.items, ...added, { ident: pendingId, role: 'assistant', content: '', pending: true }],
      }));
      setStatus('submitted');
      setSentAt(Date.now());
      const input: SendInput = {
        conversationId,
        messages: outgoing,
        entryPointPath: options.entryPointPath,
        patientId: current.isNew ? options.patientId : null,
      };
      const setReply = (content: string, done: boolean) =>
        update((s) =>
          s.conversationId !== conversationId
            ? s
            : { ...s, items: s.items.map((i) => (i.ident === pendingId ? { ...i, content, pending: !done && content === '' } : i)) },
        );
      try {
        if (options.streaming) {
          let content = '';
          let finished = false;
          let failure: string | null = null;
          await streamConversation(input, (event: CopilotStreamEvent) => {
            if (event.type === 'start') setModel(event.model);
            else if (event.type === 'token') {
              content += event.text;
              setStatus('streaming');
              setReply(content, false);
            } else if (event.type === 'done') {
              finished = true;
              setReply(event.message.content, true);
            } else if (event.type === 'error') failure = event.message;
          });
          if (failure || !finished) throw new Error(failure ?? 'The reply ended early');
        } else {
          const reply = await sendConversation(input);
          setModel(reply.model);
          setReply(reply.content, true);
        }
        update((s) => (s.conversationId !== conversationId ? s : { ...s, isNew: false, loaded: s.loaded + added.length + 1 }));
        setStatus('ready');
        // After the first successful send the conversation appears in the history.
        if (current.isNew) void queryClient.invalidateQueries({ queryKey: [...copilotKeys.all, 'conversations'] });
        return true;
      } catch (error) {
        // Recorded without the conversation's text (it may hold PHI).
        console.error('Copilot reply failed', (error as Error)?.name ?? 'error');
        // The bubble says what the spec says; why it failed is worth telling when the practice has no model.
        if ((error as Error)?.message === COPILOT_MESSAGES.notConfigured) showToast(COPILOT_MESSAGES.notConfigured, { tone: 'error' });
        update((s) =>
          s.conversationId !== conversationId
            ? s
            : { ...s, items: s.items.map((i) => (i.ident === pendingId ? { ...i, content: COPILOT_MESSAGES.chatFailure, pending: false, failed: true } : i)) },
        );
        setStatus('error');
        return false;
      } finally {
        busy.current = false;
      }
    },
    [options.patient, options.patientId, options.streaming, options.entryPointPath, queryClient],
  );

  const newChat = useCallback(() => {
    if (busy.current) return;
    // Spec shell §2.8: a new chat keeps the id of one created but never used.
    setState((s) => fresh(s.isNew ? s.conversationId : newConversationId()));
    setStatus('ready');
  }, []);

  const openConversation = useCallback(async (conversationId: string) => {
    if (busy.current) return;
    const page = await fetchMessages(conversationId, 0);
    setState({
      conversationId,
      isNew: false,
      items: page.messages.map((m) => ({
        ident: m.ident,
        role: m.role,
        content: m.content,
        ...(m.content.startsWith('Patient in context:') ? { local: 'context' as const } : {}),
      })),
      loaded: page.messages.length,
      hasOlder: page.hasMore,
      contextInjected: true,
    });
    setStatus('ready');
  }, []);

  const loadOlder = useCallback(async (): Promise<boolean> => {
    const s = stateRef.current;
    if (!s.hasOlder || loadingOlder) return false;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(s.conversationId, s.loaded);
      update((cur) =>
        cur.conversationId !== s.conversationId
          ? cur
          : {
              ...cur,
              items: [
                ...page.messages.map((m) => ({
                  ident: m.ident,
                  role: m.role,
                  content: m.content,
                  ...(m.content.startsWith('Patient in context:') ? { local: 'context' as const } : {}),
                })),
                ...cur.items,
              ],
              loaded: cur.loaded + page.messages.length,
              hasOlder: page.hasMore,
            },
      );
      return page.messages.length > 0;
    } finally {
      setLoadingOlder(false);
    }
  }, [loadingOlder]);

  return { state, status, model, sentAt, send, newChat, openConversation, loadOlder, loadingOlder };
}
