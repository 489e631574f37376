import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../functions/groups.js';
import { MFA_POLICIES, type MfaPolicy } from '../../infra/config/practice-config.js';
import { Auth } from '../../infra/lib/auth.js';
import { applyNagPacks } from '../../infra/lib/nag.js';
import { synthPracticeStack, templateLookups } from './synth-practice-stack.js';

/** The user pool alone, for one policy, with both nag packs. */
function poolFor(mfa: MfaPolicy) {
  const app = new App();
  const stack = new Stack(app, `Pool-${mfa}`);
  new Auth(stack, 'Auth', { retainData: false, mfa });
  applyNagPacks(app);
  const pool = Object.values(Template.fromStack(stack).findResources('AWS::Cognito::UserPool'))[0] as { Properties: Record<string, unknown> };
  const cog2 = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('^AwsSolutions-COG2'));
  return { pool: pool.Properties, cog2 };
}

describe("the practice file's mfa in the user pool", () => {
  it('turns the pool MFA on for required and keeps it optional for admins and optional, TOTP only, with nothing unsuppressed for cdk-nag', () => {
    const seen = Object.fromEntries(
      MFA_POLICIES.map((mfa) => {
        const { pool, cog2 } = poolFor(mfa);
        return [mfa, { MfaConfiguration: pool.MfaConfiguration, EnabledMfas: pool.EnabledMfas, cog2Errors: cog2.length }];
      }),
    );
    expect(seen).toEqual({
      required: { MfaConfiguration: 'ON', EnabledMfas: ['SOFTWARE_TOKEN_MFA'], cog2Errors: 0 },
      admins: { MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'], cog2Errors: 0 },
      optional: { MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'], cog2Errors: 0 },
    });
  });
});

describe.each(['admins', 'required'] as const)("mfa '%s' in the API", (mfa) => {
  let lookups: ReturnType<typeof templateLookups>;
  beforeAll(() => {
    lookups = templateLookups(synthPracticeStack(GROUPS, { mfa }));
  }, 120_000);

  it('gives every endpoint group the rule, the pool id and AdminGetUser on this pool only (to read a caller’s TOTP enrolment)', () => {
    const [poolId] = lookups.ofType('AWS::Cognito::UserPool')[0];
    const policies = lookups.ofType('AWS::IAM::Policy');
    for (const group of GROUPS) {
      const [, fn] = lookups.fnByDescription(`Tidewell ${group.name} endpoints (demo)`);
      const env = fn.Properties.Environment.Variables;
      expect(env.MFA_POLICY, group.name).toBe(mfa);
      expect(lookups.refs(env.USER_POOL_ID), group.name).toEqual([poolId]);
      const roleId = lookups.refs(fn.Properties.Role)[0];
      const statements = policies
        .filter(([, p]) => lookups.refs(p.Properties.Roles).includes(roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
      const getUser = statements.filter((st) => [st.Action].flat().includes('cognito-idp:AdminGetUser'));
      expect(getUser.length, group.name).toBeGreaterThan(0);
      for (const st of getUser) expect(lookups.refs(st.Resource), group.name).toEqual([poolId]);
    }
  });

  it('gives the realtime subscription guard the same rule, so a caller without TOTP hears no notification the API would refuse them', () => {
    const [poolId] = lookups.ofType('AWS::Cognito::UserPool')[0];
    const [, fn] = lookups.fnByDescription('Tidewell realtime subscription access check (demo)');
    const env = fn.Properties.Environment.Variables;
    expect(env.MFA_POLICY).toBe(mfa);
    expect(lookups.refs(env.USER_POOL_ID)).toEqual([poolId]);
    const roleId = lookups.refs(fn.Properties.Role)[0];
    const getUser = lookups
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => lookups.refs(p.Properties.Roles).includes(roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((st) => [st.Action].flat().includes('cognito-idp:AdminGetUser'));
    expect(getUser.length).toBeGreaterThan(0);
    for (const st of getUser) expect(lookups.refs(st.Resource)).toEqual([poolId]);
  });
});
