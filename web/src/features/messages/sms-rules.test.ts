import { describe, expect, it } from 'vitest';
import { SMS_ATTACHMENT_MAX_BYTES } from '../../../../shared/messaging/messaging-constants.js';
import { canSend, isAllowedAttachment, SMS_MESSAGES, withServerText } from './sms-rules.js';

describe('SMS send rules', () => {
  it('refuses files over 5,000,000 bytes or of an unsupported type', () => {
    expect(isAllowedAttachment({ name: 'x.png', type: 'image/png', size: SMS_ATTACHMENT_MAX_BYTES })).toBe(true);
    expect(isAllowedAttachment({ name: 'x.png', type: 'image/png', size: SMS_ATTACHMENT_MAX_BYTES + 1 })).toBe(false);
    expect(isAllowedAttachment({ name: 'x.exe', type: 'application/x-msdownload', size: 10 })).toBe(false);
  });

  it('sends words or files, and in new-message mode only to a chosen patient', () => {
    expect(canSend({ text: '  <p> </p>', files: 0, newMessage: false, patientChosen: false })).toBe(false);
    expect(canSend({ text: '', files: 1, newMessage: false, patientChosen: false })).toBe(true);
    expect(canSend({ text: 'Hello', files: 0, newMessage: true, patientChosen: false })).toBe(false);
    expect(canSend({ text: 'Hello', files: 0, newMessage: true, patientChosen: true })).toBe(true);
  });

  it('appends the server text to an error toast and counts scheduled messages', () => {
    expect(withServerText(SMS_MESSAGES.sendFailed, new Error('The patient opted out'))).toBe(
      'There was an error while sending your sms. The patient opted out',
    );
    expect(withServerText('X', 'nope')).toBe('X');
    expect(SMS_MESSAGES.scheduledCount(2)).toBe('2 scheduled message(s)');
  });
});
