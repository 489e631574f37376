import { describe, expect, it } from 'vitest';
import { COPILOT_MESSAGES, COPILOT_SEND_STATUSES } from '../../../../shared/ai/copilot-schema.js';
import { canSend, itemsToAdd, outgoingMessages, type ChatItem } from './chat-rules.js';

const ROSA = { patientId: 'pat-9', firstName: 'Rosa', lastName: 'Quintero', fullName: 'Rosa Quintero', age: 56 };

describe('Copilot send rules (spec shell §4, §5)', () => {
  it('sends from ready and after an error, never while submitted or streaming, never blank', () => {
    expect(COPILOT_SEND_STATUSES.filter((s) => canSend(s, 'Hi'))).toEqual(['ready', 'error']);
    expect(canSend('ready', '   \n ')).toBe(false);
  });

  it('injects the patient-context message once, only into a new conversation with a patient', () => {
    const first = itemsToAdd({ isNew: true, contextInjected: false, patient: ROSA, conversationId: 'c1', text: 'Allergies?', now: 1 });
    expect(first.map((i) => [i.local ?? 'question', i.content])).toEqual([
      ['context', 'Patient in context: Rosa Quintero (56).'],
      ['question', 'Allergies?'],
    ]);
    expect(itemsToAdd({ isNew: true, contextInjected: true, patient: ROSA, conversationId: 'c1', text: 'Again', now: 2 })).toHaveLength(1);
    expect(itemsToAdd({ isNew: false, contextInjected: false, patient: ROSA, conversationId: 'c1', text: 'Later', now: 3 })).toHaveLength(1);
    expect(itemsToAdd({ isNew: true, contextInjected: false, patient: null, conversationId: 'c2', text: 'No patient', now: 4 })).toHaveLength(1);
  });

  it('sends what was said, without the greeting, a pending bubble or a failed reply', () => {
    const items: ChatItem[] = [
      { ident: 'greeting', role: 'assistant', content: COPILOT_MESSAGES.greeting, local: 'greeting' },
      { ident: 'ctx', role: 'user', content: 'Patient in context: Rosa Quintero (56).', local: 'context' },
      { ident: 'q1', role: 'user', content: 'Allergies?' },
      { ident: 'a1', role: 'assistant', content: COPILOT_MESSAGES.chatFailure, failed: true },
      { ident: 'q2', role: 'user', content: 'Allergies, again?' },
      { ident: 'a2', role: 'assistant', content: '', pending: true },
    ];
    expect(outgoingMessages(items)).toEqual([
      { role: 'user', content: 'Patient in context: Rosa Quintero (56).' },
      { role: 'user', content: 'Allergies?' },
      { role: 'user', content: 'Allergies, again?' },
    ]);
  });
});
