import { describe, expect, it } from 'vitest';
import {
  MESSAGING_MESSAGES,
  optKeywordAction,
  ScheduledEventCreateBody,
  SendMessageBody,
  SMS_ATTACHMENT_MAX_BYTES,
  smsAttachmentError,
} from './messaging-schema.js';

describe('SMS attachments', () => {
  it('accepts an allowed type up to 5,000,000 bytes and refuses anything else with the spec text', () => {
    expect(smsAttachmentError({ name: 'x.jpg', contentType: 'image/jpeg', size: SMS_ATTACHMENT_MAX_BYTES })).toBeNull();
    expect(smsAttachmentError({ name: 'x.jpg', contentType: 'image/jpeg', size: SMS_ATTACHMENT_MAX_BYTES + 1 })).toBe(MESSAGING_MESSAGES.invalidFile);
    expect(smsAttachmentError({ name: 'x.exe', contentType: 'application/octet-stream', size: 10 })).toBe(MESSAGING_MESSAGES.invalidFile);
    expect(smsAttachmentError({ name: 'x.pdf', contentType: 'image/png', size: 10 })).toBe(MESSAGING_MESSAGES.invalidFile);
  });

  it('a send needs text or a file', () => {
    const r = SendMessageBody.safeParse({ text: '  ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(MESSAGING_MESSAGES.textOrFileRequired);
    expect(SendMessageBody.parse({ text: 'hi', from: '(541) 555-0100' }).from).toBe('+15415550100');
  });
});

describe('opt-out keywords', () => {
  it('reads STOP and its synonyms, START and UNSTOP, as the whole reply only', () => {
    expect(optKeywordAction(' stop ')).toBe('opt-out');
    expect(optKeywordAction('Unsubscribe')).toBe('opt-out');
    expect(optKeywordAction('START')).toBe('opt-in');
    expect(optKeywordAction('please stop')).toBeNull();
  });
});

describe('scheduled event body', () => {
  it('fills the spec defaults (operationVersion v2, invocations 1)', () => {
    const b = ScheduledEventCreateBody.parse({
      when: '2030-01-01T10:00:00Z',
      request: { noteType: 'SMS', patientId: 'pat-1', data: { from: '5415550100', to: '5415550199', text: 'Hello' } },
    });
    expect(b).toMatchObject({ operationVersion: 'v2', invocations: 1, eventType: 'createScheduledNote' });
    expect(b.request.data.to).toBe('+15415550199');
  });
});
