import { describe, expect, it } from 'vitest';
import { PracticeConfigSchema } from '../../infra/config/practice-config.js';
import { synthPracticeStack, templateLookups } from './synth-practice-stack.js';

const telephony = { baseUrl: 'https://api.twilio.com', accountSid: `AC${'a1'.repeat(16)}`, numbers: ['+15415550180'] };
const fax = { baseUrl: 'https://fax.api.sinch.com', projectId: 'proj-123', numbers: ['+15415550190', '+15415550191'] };

describe('telephony and fax settings of a deployed practice', () => {
  const practice = synthPracticeStack(undefined, { telephony, fax });
  const { fnByDescription, refs } = templateLookups(practice);
  const env = (group: string) => fnByDescription(`Tidewell ${group} endpoints (demo)`)[1].Properties.Environment.Variables as Record<string, unknown>;

  it('gives the practice group (click-to-call) and the notes group (Twilio callbacks) the Twilio account and the callback URL on this API', () => {
    for (const group of ['practice', 'notes']) {
      expect(env(group)).toMatchObject({
        TELEPHONY_API_URL: 'https://api.twilio.com',
        TELEPHONY_ACCOUNT_SID: telephony.accountSid,
        TELEPHONY_NUMBERS: '+15415550180',
      });
      const url = JSON.stringify(env(group).TELEPHONY_CALLBACK_URL);
      expect(url).toContain('/v1/partner-deliveries/twilio-voice/calls');
      expect(refs(env(group).TELEPHONY_CALLBACK_URL).some((id) => id.startsWith('Api'))).toBe(true);
    }
    expect(env('files')).not.toHaveProperty('TELEPHONY_ACCOUNT_SID');
  });

  it('gives the files group the Sinch fax project, numbers and callback URL, so a deployed practice can fax', () => {
    expect(env('files')).toMatchObject({ FAX_API_URL: 'https://fax.api.sinch.com', FAX_PROJECT_ID: 'proj-123', FAX_NUMBERS: '+15415550190,+15415550191' });
    expect(JSON.stringify(env('files').FAX_CALLBACK_URL)).toContain('/v1/partner-deliveries/sinch-fax/faxes');
    expect(env('practice')).not.toHaveProperty('FAX_PROJECT_ID');
  });

  it('refuses numbers that are not E.164 and an account that is not a Twilio SID', () => {
    const base = { slug: 'x1', practiceId: 'prc_x1', practiceName: 'X' };
    expect(PracticeConfigSchema.safeParse({ ...base, telephony: { ...telephony, numbers: ['(541) 555-0180'] } }).error?.issues[0].message).toBe(
      'telephony.numbers must be E.164 numbers (+15415550100)',
    );
    expect(PracticeConfigSchema.safeParse({ ...base, telephony: { ...telephony, accountSid: 'nope' } }).success).toBe(false);
    expect(PracticeConfigSchema.safeParse({ ...base, fax: { ...fax, numbers: [] } }).success).toBe(false);
  });
});
