import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../lib/paths.js';
import { deployedPartnerOrigins, loadPracticeConfig, PracticeConfigSchema } from './practice-config.js';

const base = { slug: 'harbor', practiceId: 'prc_harbor', practiceName: 'Harbor Family Medicine' };

describe('practice config email sender', () => {
  it('is optional, and accepts a domain or address identity with a sending address inside it', () => {
    expect(PracticeConfigSchema.parse(base).email).toBeUndefined();
    expect(
      PracticeConfigSchema.parse({
        ...base,
        email: { identity: 'harborfm.example', fromAddress: 'notes@harborfm.example', configurationSet: 'tidewell-harbor' },
      }).email,
    ).toEqual({
      identity: 'harborfm.example',
      fromAddress: 'notes@harborfm.example',
      configurationSet: 'tidewell-harbor',
    });
    expect(PracticeConfigSchema.safeParse({ ...base, email: { identity: 'notes@harborfm.example', fromAddress: 'notes@harborfm.example' } }).success).toBe(
      true,
    );
  });

  it('refuses a sending address the identity does not cover, before anything is deployed', () => {
    const result = PracticeConfigSchema.safeParse({ ...base, email: { identity: 'harborfm.example', fromAddress: 'notes@gmail.example' } });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({
      path: ['email', 'fromAddress'],
      message: 'email.fromAddress must be the identity address or an address of the identity domain',
    });
    expect(PracticeConfigSchema.safeParse({ ...base, email: { identity: 'not a domain', fromAddress: 'a@b.example' } }).success).toBe(false);
  });
});

describe('practice config texting', () => {
  it('is optional, takes the E.164 numbers the carrier account holds, and refuses any other form', () => {
    expect(PracticeConfigSchema.parse(base).sms).toBeUndefined();
    expect(PracticeConfigSchema.parse({ ...base, sms: { originationNumbers: ['+15415550100'] } }).sms).toEqual({ originationNumbers: ['+15415550100'] });
    expect(PracticeConfigSchema.safeParse({ ...base, sms: { originationNumbers: ['(541) 555-0100'] } }).error?.issues[0].message).toBe(
      'sms.originationNumbers must be E.164 numbers (+15415550100)',
    );
    expect(PracticeConfigSchema.safeParse({ ...base, sms: { originationNumbers: [] } }).success).toBe(false);
  });
});

describe('practice config alarms and lookup', () => {
  it('takes alarm addresses from alarms.emails and refuses the old alarmEmail field with what to write instead', () => {
    expect(PracticeConfigSchema.parse({ ...base, alarms: { emails: ['ops@harbor.example'] } }).alarms).toEqual({ emails: ['ops@harbor.example'] });
    expect(PracticeConfigSchema.safeParse({ ...base, alarms: { emails: ['not an address'] } }).error?.issues[0].message).toBe(
      'alarms.emails must be email addresses',
    );
    expect(PracticeConfigSchema.safeParse({ ...base, alarmEmail: 'ops@harbor.example' }).error?.issues[0].message).toBe(
      'alarmEmail is replaced by alarms: { "emails": ["..."] }',
    );
  });

  it('names the configs that exist when the practice slug is unknown', () => {
    expect(() => loadPracticeConfig('harbour', REPO_ROOT)).toThrow('No practice config practices/harbour.json. Known practices: demo.');
  });

  it('names each invalid field of a config file, with the rule', () => {
    const root = mkdtempSync(join(tmpdir(), 'tidewell-config-'));
    try {
      mkdirSync(join(root, 'practices'));
      writeFileSync(join(root, 'practices', 'harbor.json'), JSON.stringify({ ...base, alarmEmail: 'ops@harbor.example', alarms: { emails: [] } }));
      expect(() => loadPracticeConfig('harbor', root)).toThrow(
        'practices/harbor.json is not a valid practice config:\n  alarms.emails: alarms.emails needs at least one address\n  alarmEmail: alarmEmail is replaced by alarms: { "emails": ["..."] }',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('practice config partner apps', () => {
  it('seeds partner apps ("local" is the npm start demo partner) and frames exactly the deployed partner origins', () => {
    const config = PracticeConfigSchema.parse({
      ...base,
      partnerApps: [
        { partnerAppId: 'care-plan', name: 'Care Plan', origin: 'https://care.example', path: '/embed' },
        { partnerAppId: 'local-demo', name: 'Demo', origin: 'local' },
      ],
      partnerOrigins: ['https://labs.example', 'https://care.example'],
    });
    expect(config.partnerApps[0]).toMatchObject({ icon: 'app', noteType: 'PARTNER', active: true, path: '/embed' });
    expect(deployedPartnerOrigins(config)).toEqual(['https://labs.example', 'https://care.example']);
    expect(deployedPartnerOrigins(PracticeConfigSchema.parse(base))).toEqual([]);
    expect(PracticeConfigSchema.safeParse({ ...base, partnerOrigins: ['http://care.example'] }).success).toBe(false);
    expect(PracticeConfigSchema.safeParse({ ...base, partnerApps: [{ partnerAppId: 'Bad Id', name: 'x', origin: 'https://a.example' }] }).success).toBe(false);
  });

  it("frames the core product's membership origin too, unless it is the local stand-in", () => {
    expect(
      deployedPartnerOrigins(PracticeConfigSchema.parse({ ...base, partnerOrigins: ['https://labs.example'], membershipOrigin: 'https://core.example' })),
    ).toEqual(['https://labs.example', 'https://core.example']);
    expect(deployedPartnerOrigins(PracticeConfigSchema.parse({ ...base, membershipOrigin: 'local' }))).toEqual([]);
    expect(PracticeConfigSchema.safeParse({ ...base, membershipOrigin: 'http://core.example' }).success).toBe(false);
    expect(PracticeConfigSchema.safeParse({ ...base, membershipOrigin: 'https://core.example/billing' }).success).toBe(false);
  });
});

describe('practice config AI scribe', () => {
  it('is optional, and takes a Bedrock model or inference profile id with an optional region', () => {
    expect(PracticeConfigSchema.parse(base).ai).toBeUndefined();
    expect(PracticeConfigSchema.parse({ ...base, ai: { modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0', region: 'us-west-2' } }).ai).toEqual({
      modelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0',
      region: 'us-west-2',
    });
  });

  it('refuses a model id with spaces or a region that is not one, naming the setting', () => {
    const bad = PracticeConfigSchema.safeParse({ ...base, ai: { modelId: 'claude please', region: 'Virginia' } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      'ai.modelId must be a Bedrock model or inference profile id',
      'ai.region must be an AWS region such as us-east-1',
    ]);
  });
});

describe('practice config first admin', () => {
  it('is optional, takes an email and both names, and refuses anything else with the field named', () => {
    expect(PracticeConfigSchema.parse(base).firstAdmin).toBeUndefined();
    expect(PracticeConfigSchema.parse({ ...base, firstAdmin: { email: 'ada@harbor.example', firstName: ' Ada ', lastName: 'Lee' } }).firstAdmin).toEqual({
      email: 'ada@harbor.example',
      firstName: 'Ada',
      lastName: 'Lee',
    });
    const bad = PracticeConfigSchema.safeParse({ ...base, firstAdmin: { email: 'ada', firstName: ' ', lastName: 'Lee' } });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['firstAdmin.email', 'firstAdmin.email must be an email address'],
      ['firstAdmin.firstName', 'firstAdmin.firstName is required'],
    ]);
  });
});

describe('practice config mfa', () => {
  it('defaults to admins, takes required, admins or optional, and refuses anything else naming the choices', () => {
    expect(PracticeConfigSchema.parse(base).mfa).toBe('admins');
    for (const mfa of ['required', 'admins', 'optional']) expect(PracticeConfigSchema.parse({ ...base, mfa }).mfa).toBe(mfa);
    const bad = PracticeConfigSchema.safeParse({ ...base, mfa: 'always' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['mfa', 'mfa must be "required", "admins" or "optional"']]);
  });

  it('is optional in the demo practice, so its logins work without an authenticator app', () => {
    expect(loadPracticeConfig('demo', REPO_ROOT).mfa).toBe('optional');
  });
});
