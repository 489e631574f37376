import { describe, expect, it } from 'vitest';
import { emailSaveError, emailSendMissing, emailSendMissingMessage } from './email.js';

describe('email', () => {
  it('lists what an email send is missing', () => {
    expect(emailSaveError({ subject: ' ' })).toBe('Subject is required');
    const missing = emailSendMissing(null, { to: 'a@b.c', subject: 's' });
    expect(missing).toEqual(['patient', 'from', 'body']);
    expect(emailSendMissingMessage(missing)).toBe('The email cannot be sent without patient, from, body.');
  });
});
