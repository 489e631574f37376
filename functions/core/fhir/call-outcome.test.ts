import { describe, expect, it } from 'vitest';
import type { PhoneCall } from '../../../shared/calls/call-schema.js';
import { callOutcome } from './calls.js';

const call = (over: Partial<PhoneCall>): PhoneCall => ({
  ident: 'c1',
  callSid: `CA${'a'.repeat(32)}`,
  direction: 'INBOUND',
  status: 'UNREAD',
  callStatus: 'completed',
  caller: '+15035550100',
  recipient: '+15415550180',
  callerName: null,
  recipientName: null,
  patientId: 'pat-1',
  patientName: 'Cal Caller',
  assigned: null,
  placedBy: null,
  voicemailKey: null,
  voicemailSeconds: null,
  durationSeconds: 4,
  noteId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('a call’s outcome in the FHIR export', () => {
  it('an incoming call that completed while its caller hung up during the greeting is a missed call, not an answered one', () => {
    expect(callOutcome(call({ missed: true }))).toEqual({ status: 'not-done', outcome: 'Missed call' });
    expect(callOutcome(call({}))).toEqual({ status: 'completed', outcome: 'Answered' });
  });

  it('the late voicemail of a call first counted missed makes it a voicemail', () => {
    expect(callOutcome(call({ missed: false, voicemailKey: 'protected/pat-1/calls/voicemail-RE1.wav' }))).toEqual({
      status: 'completed',
      outcome: 'Voicemail',
    });
  });
});
