import { patientContextMessage, type CopilotChatMessage, type CopilotPatientProfile, type CopilotSendStatus } from '../../../../shared/ai/copilot-schema.js';

export interface ChatItem {
  ident: string;
  role: 'user' | 'assistant';
  content: string;
  /** The greeting is shown, never sent; the context message is sent once per new conversation. */
  local?: 'greeting' | 'context';
  pending?: boolean;
  failed?: boolean;
}

/** Spec shell §4/§5: no send while a reply is under way (submitted, streaming), nor of blank text. */
export function canSend(status: CopilotSendStatus, text: string): boolean {
  return status !== 'submitted' && status !== 'streaming' && text.trim() !== '';
}

/**
 * What a send adds to the chat: the patient-context message first when the conversation is new,
 * has a patient, and has not had it yet (spec shell §4: once per conversation), then the question.
 */
export function itemsToAdd(options: {
  isNew: boolean;
  contextInjected: boolean;
  patient: CopilotPatientProfile | null;
  conversationId: string;
  text: string;
  now: number;
}): ChatItem[] {
  const added: ChatItem[] = [];
  if (options.isNew && options.patient && !options.contextInjected) {
    added.push({ ident: `ctx-${options.conversationId}`, role: 'user', content: patientContextMessage(options.patient), local: 'context' });
  }
  added.push({ ident: `q-${options.now}`, role: 'user', content: options.text });
  return added;
}

/** The messages the server gets: everything shown except the greeting and bubbles without a reply. */
export function outgoingMessages(items: readonly ChatItem[]): CopilotChatMessage[] {
  return items.filter((i) => i.local !== 'greeting' && !i.pending && !i.failed).map((i) => ({ role: i.role, content: i.content }));
}
