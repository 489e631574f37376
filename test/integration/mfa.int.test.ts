import {
  AdminGetUserCommand,
  AssociateSoftwareTokenCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { runtimeForFile } from '../support/runtime-process.js';
import { totpCode } from '../support/totp.js';

/*
 * A practice whose file says "mfa": "admins" (the demo practice, run in a process of its own with
 * that rule): the API refuses an admin until their TOTP is set up; other roles are not asked.
 */
const ADMIN = 'admin@demo.tidewell.local';
const PROVIDER = 'provider@demo.tidewell.local';
const MFA_REFUSAL = 'Set up two-step sign-in (an authenticator app) before you continue: this practice requires it for administrators.';

const local = runtimeForFile('mfa', { mfa: 'admins' });

/** The admin's authenticator secret and tokens once the first test has set TOTP up. */
let adminTotp: { secret: string; idToken: string } | undefined;
async function passwordStep(email: string) {
  return local.cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: local.outputs.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
}

async function get(idToken: string, path: string): Promise<{ status: number; body: { message?: string; reason?: string } }> {
  const res = await fetch(`${local.outputs.apiUrl}${path}`, { headers: { authorization: `Bearer ${idToken}` } });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as { message?: string; reason?: string } };
}

/** A code of the next 30 s step when the current one is nearly over, so it is still good when the pool checks it. */
function freshCode(secret: string): string {
  const intoStep = Date.now() % 30_000;
  return totpCode(secret, intoStep > 25_000 ? Date.now() + 30_000 - intoStep : Date.now());
}

describe('mfa "admins"', () => {
  it('refuses an admin without TOTP with the reason, lets them in once it is set up, and then asks for the code at sign-in', async () => {
    const first = await passwordStep(ADMIN);
    expect(first.ChallengeName).toBeUndefined();
    const tokens = first.AuthenticationResult!;
    const refused = await get(tokens.IdToken!, '/v1/patients');
    expect(refused).toEqual({ status: 403, body: { message: MFA_REFUSAL, reason: 'mfa_required' } });

    // The set-up the web does with aws-amplify/auth (setUpTOTP, verifyTOTPSetup, updateMFAPreference).
    const { SecretCode } = await local.cognito().send(new AssociateSoftwareTokenCommand({ AccessToken: tokens.AccessToken }));
    const wrong = String((Number(freshCode(SecretCode!)) + 1) % 1_000_000).padStart(6, '0');
    await expect(local.cognito().send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: wrong }))).rejects.toThrow();
    expect((await get(tokens.IdToken!, '/v1/patients')).status).toBe(403);
    await local
      .cognito()
      .send(new VerifySoftwareTokenCommand({ AccessToken: tokens.AccessToken, UserCode: freshCode(SecretCode!), FriendlyDeviceName: 'phone' }));
    await local
      .cognito()
      .send(new SetUserMFAPreferenceCommand({ AccessToken: tokens.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
    expect((await get(tokens.IdToken!, '/v1/patients')).status).toBe(200);

    // The next sign-in asks for the code; a wrong one is refused, the authenticator's code signs in.
    const second = await passwordStep(ADMIN);
    expect(second.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(second.AuthenticationResult).toBeUndefined();
    const answer = (session: string, code: string) =>
      local.cognito().send(
        new RespondToAuthChallengeCommand({
          ClientId: local.outputs.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: { USERNAME: ADMIN, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    await expect(answer(second.Session!, wrong)).rejects.toThrow();
    const third = await passwordStep(ADMIN);
    const signedIn = await answer(third.Session!, freshCode(SecretCode!));
    expect((await get(signedIn.AuthenticationResult!.IdToken!, '/v1/patients')).status).toBe(200);
    adminTotp = { secret: SecretCode!, idToken: signedIn.AuthenticationResult!.IdToken! };
  });

  it('does not sign in with a TOTP code alone: the challenge needs the session of a password step', async () => {
    await expect(
      local.cognito().send(
        new RespondToAuthChallengeCommand({
          ClientId: local.outputs.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: 'made-up',
          ChallengeResponses: { USERNAME: ADMIN, SOFTWARE_TOKEN_MFA_CODE: '000000' },
        }),
      ),
    ).rejects.toThrow('Invalid session for the user.');
  });

  it("lets an admin reset a user's two-step sign-in, audited: the user sets it up again at the next sign-in; other roles cannot", async () => {
    expect(adminTotp).toBeDefined();
    const { idToken } = adminTotp!;
    const admin = await get(idToken, '/v1/practices/users/me');
    const adminId = (admin.body as { userId?: string }).userId!;
    const provider = (await passwordStep(PROVIDER)).AuthenticationResult!;
    const reset = (token: string, userId: string) =>
      fetch(`${local.outputs.apiUrl}/v1/practices/users/${userId}/mfa`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });

    const refused = await reset(provider.IdToken!, adminId);
    expect(refused.status).toBe(403);
    expect((await reset(idToken, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await passwordStep(ADMIN)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');

    expect((await reset(idToken, adminId)).status).toBe(204);
    const pooled = await local.cognito().send(new AdminGetUserCommand({ UserPoolId: local.outputs.userPoolId, Username: adminId }));
    expect(pooled.UserMFASettingList ?? []).not.toContain('SOFTWARE_TOKEN_MFA');
    // The API asks for a new set-up at once, and the next sign-in takes the password alone (then the set-up).
    expect(await get(idToken, '/v1/patients')).toMatchObject({ status: 403, body: { reason: 'mfa_required' } });
    const next = await passwordStep(ADMIN);
    expect(next.ChallengeName).toBeUndefined();
    expect((await get(next.AuthenticationResult!.IdToken!, '/v1/patients')).body.reason).toBe('mfa_required');

    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: local.runtime.table.dynamodb,
        region: local.outputs.region,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const audit = await table.send(
      new QueryCommand({
        TableName: local.runtime.table.tableName,
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        FilterExpression: 'entity = :e',
        ExpressionAttributeValues: { ':p': local.runtime.table.practiceId, ':a': 'AUDIT#', ':e': 'user-mfa' },
        ConsistentRead: true,
      }),
    );
    expect(audit.Items?.map((e) => ({ action: e.action, entityId: e.entityId, actorUserId: e.actorUserId }))).toEqual([
      { action: 'update', entityId: adminId, actorUserId: adminId },
    ]);
  });

  it('does not ask a provider for TOTP', async () => {
    const out = await passwordStep(PROVIDER);
    expect(out.ChallengeName).toBeUndefined();
    expect((await get(out.AuthenticationResult!.IdToken!, '/v1/patients')).status).toBe(200);
  });
});
