import { describe, expect, it } from 'vitest';
import { PracticeConfigSchema } from './practice-config.js';

const base = { slug: 'harbor', practiceId: 'prc_harbor', practiceName: 'Harbor Family Medicine' };

describe('practice config email sender', () => {
  it('is optional, and accepts a domain or address identity with a sending address inside it', () => {
    expect(PracticeConfigSchema.parse(base).email).toBeUndefined();
    expect(PracticeConfigSchema.parse({ ...base, email: { identity: 'harborfm.example', fromAddress: 'notes@harborfm.example', configurationSet: 'tidewell-harbor' } }).email).toEqual({
      identity: 'harborfm.example',
      fromAddress: 'notes@harborfm.example',
      configurationSet: 'tidewell-harbor',
    });
    expect(PracticeConfigSchema.safeParse({ ...base, email: { identity: 'notes@harborfm.example', fromAddress: 'notes@harborfm.example' } }).success).toBe(true);
  });

  it('refuses a sending address the identity does not cover, before anything is deployed', () => {
    const result = PracticeConfigSchema.safeParse({ ...base, email: { identity: 'harborfm.example', fromAddress: 'notes@gmail.example' } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ path: ['email', 'fromAddress'], message: 'email.fromAddress must be the identity address or an address of the identity domain' });
    expect(PracticeConfigSchema.safeParse({ ...base, email: { identity: 'not a domain', fromAddress: 'a@b.example' } }).success).toBe(false);
  });
});
