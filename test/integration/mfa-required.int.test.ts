import {
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { runtimeForFile } from '../support/runtime-process.js';
import { totpCode } from '../support/totp.js';

/*
 * A practice whose file says "mfa": "required": the pool's MFA is on, so a user without TOTP gets
 * Cognito's MFA_SETUP challenge instead of tokens, sets TOTP up with the challenge's session
 * (AssociateSoftwareToken, VerifySoftwareToken), answers MFA_SETUP and is signed in; every later
 * sign-in asks for the code. Driven with the official SDK client, as Amplify's signIn does.
 */
const PROVIDER = 'provider@demo.tidewell.local';

const local = runtimeForFile('mfa-required', { mfa: 'required' });

const passwordStep = (email: string) =>
  local.cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: local.outputs.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );

const finishSetUp = (session: string) =>
  local.cognito().send(
    new RespondToAuthChallengeCommand({
      ClientId: local.outputs.userPoolClientId,
      ChallengeName: 'MFA_SETUP',
      Session: session,
      ChallengeResponses: { USERNAME: PROVIDER },
    }),
  );

/** A code of the next 30 s step when the current one is nearly over, so it is still good when the pool checks it. */
function freshCode(secret: string): string {
  const intoStep = Date.now() % 30_000;
  return totpCode(secret, intoStep > 25_000 ? Date.now() + 30_000 - intoStep : Date.now());
}

const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function refusal(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  const error = (await promise.then(
    () => ({ name: 'none', message: 'it was accepted' }),
    (e: Error) => e,
  )) as Error;
  return { name: error.name, message: error.message };
}

async function patientsStatus(idToken: string): Promise<number> {
  return (await fetch(`${local.outputs.apiUrl}/v1/patients`, { headers: { authorization: `Bearer ${idToken}` } })).status;
}

describe('mfa "required"', () => {
  it('gives a user without TOTP the MFA_SETUP challenge, signs them in once the set-up is verified, then asks for the code', async () => {
    const first = await passwordStep(PROVIDER);
    expect(first.AuthenticationResult).toBeUndefined();
    expect(first.ChallengeName).toBe('MFA_SETUP');
    expect(JSON.parse(first.ChallengeParameters!.MFAS_CAN_SETUP!)).toEqual(['SOFTWARE_TOKEN_MFA']);
    // The set-up cannot be skipped: answering MFA_SETUP before a verified set-up does not sign in.
    expect(await refusal(finishSetUp(first.Session!))).toEqual({ name: 'NotAuthorizedException', message: 'Invalid session for the user.' });

    const second = await passwordStep(PROVIDER);
    const associated = await local.cognito().send(new AssociateSoftwareTokenCommand({ Session: second.Session }));
    expect(associated.SecretCode).toMatch(/^[A-Z2-7]{16,}$/);
    expect(associated.Session).toBeTruthy();
    expect(associated.Session).not.toBe(second.Session);
    const secret = associated.SecretCode!;

    const verify = (code: string) =>
      local.cognito().send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: code, FriendlyDeviceName: 'phone' }));
    expect(await refusal(verify(otherThan(freshCode(secret))))).toEqual({
      name: 'EnableSoftwareTokenMFAException',
      message: 'Code mismatch and fail enable Software Token MFA',
    });
    expect(await refusal(finishSetUp(associated.Session!))).toEqual({ name: 'NotAuthorizedException', message: 'Invalid session for the user.' });

    // The wrong code kept the session: the user types the right one into the same set-up.
    const thirdStep = await passwordStep(PROVIDER);
    const again = await local.cognito().send(new AssociateSoftwareTokenCommand({ Session: thirdStep.Session }));
    const wrongFirst = (code: string) => local.cognito().send(new VerifySoftwareTokenCommand({ Session: again.Session, UserCode: code }));
    expect((await refusal(wrongFirst(otherThan(freshCode(again.SecretCode!))))).name).toBe('EnableSoftwareTokenMFAException');
    const verified = await wrongFirst(freshCode(again.SecretCode!));
    expect(verified.Status).toBe('SUCCESS');
    expect(verified.Session).toBeTruthy();

    const signedIn = await finishSetUp(verified.Session!);
    expect(signedIn.ChallengeName).toBeUndefined();
    expect(await patientsStatus(signedIn.AuthenticationResult!.IdToken!)).toBe(200);
    expect(signedIn.AuthenticationResult!.RefreshToken).toBeTruthy();
    // A session signs in once.
    expect((await refusal(finishSetUp(verified.Session!))).name).toBe('NotAuthorizedException');

    const pooled = await local.cognito().send(new AdminGetUserCommand({ UserPoolId: local.outputs.userPoolId, Username: PROVIDER }));
    expect(pooled.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect(pooled.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');

    // The next sign-in asks for the authenticator's code (the secret of the set-up that was verified).
    const next = await passwordStep(PROVIDER);
    expect(next.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const answer = (session: string, code: string) =>
      local.cognito().send(
        new RespondToAuthChallengeCommand({
          ClientId: local.outputs.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: { USERNAME: PROVIDER, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    expect((await refusal(answer(next.Session!, otherThan(freshCode(again.SecretCode!))))).name).toBe('CodeMismatchException');
    const last = await passwordStep(PROVIDER);
    const tokens = (await answer(last.Session!, freshCode(again.SecretCode!))).AuthenticationResult!;
    expect(await patientsStatus(tokens.IdToken!)).toBe(200);
    expect(secret).not.toBe(again.SecretCode);
  });

  it('takes a set-up only with the session of an MFA_SETUP challenge', async () => {
    expect(await refusal(local.cognito().send(new AssociateSoftwareTokenCommand({ Session: 'made-up' })))).toEqual({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user.',
    });
    const step = await passwordStep('employee@demo.tidewell.local');
    expect(step.ChallengeName).toBe('MFA_SETUP');
    // Verifying before a secret was handed out with this session is refused.
    expect((await refusal(local.cognito().send(new VerifySoftwareTokenCommand({ Session: step.Session, UserCode: '123456' })))).name).toBe(
      'NotAuthorizedException',
    );
  });
  it('asks a user with TOTP for the code after they choose a new password (a temporary password after a reset)', async () => {
    const pa = 'pa@demo.tidewell.local';
    const setUp = await local.cognito().send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: local.outputs.userPoolClientId,
        AuthParameters: { USERNAME: pa, PASSWORD: DEMO_PASSWORD },
      }),
    );
    const associated = await local.cognito().send(new AssociateSoftwareTokenCommand({ Session: setUp.Session }));
    const secret = associated.SecretCode!;
    const verified = await local.cognito().send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: freshCode(secret) }));
    await local.cognito().send(
      new RespondToAuthChallengeCommand({
        ClientId: local.outputs.userPoolClientId,
        ChallengeName: 'MFA_SETUP',
        Session: verified.Session,
        ChallengeResponses: { USERNAME: pa },
      }),
    );

    const temporary = 'Temporary-Pass-2026!';
    await local.cognito().send(new AdminSetUserPasswordCommand({ UserPoolId: local.outputs.userPoolId, Username: pa, Password: temporary, Permanent: false }));
    const first = await local.cognito().send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: local.outputs.userPoolClientId,
        AuthParameters: { USERNAME: pa, PASSWORD: temporary },
      }),
    );
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const chosen = 'Chosen-Password-2026!';
    const afterPassword = await local.cognito().send(
      new RespondToAuthChallengeCommand({
        ClientId: local.outputs.userPoolClientId,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: first.Session,
        ChallengeResponses: { USERNAME: pa, NEW_PASSWORD: chosen },
      }),
    );
    // No tokens for the password alone: the authenticator's code comes next, with a new session.
    expect(afterPassword.AuthenticationResult).toBeUndefined();
    expect(afterPassword.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(afterPassword.Session).toBeTruthy();
    expect(afterPassword.Session).not.toBe(first.Session);

    const answer = (session: string, code: string) =>
      local.cognito().send(
        new RespondToAuthChallengeCommand({
          ClientId: local.outputs.userPoolClientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: { USERNAME: pa, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    expect((await refusal(answer(afterPassword.Session!, otherThan(freshCode(secret))))).name).toBe('CodeMismatchException');
    // The new password holds: signing in with it asks for the code again, and the code signs in.
    const again = await local.cognito().send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: local.outputs.userPoolClientId,
        AuthParameters: { USERNAME: pa, PASSWORD: chosen },
      }),
    );
    expect(again.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const tokens = (await answer(again.Session!, totpCode(secret, Date.now() + 30_000))).AuthenticationResult!;
    expect(await patientsStatus(tokens.IdToken!)).toBe(200);
    expect(tokens.RefreshToken).toBeTruthy();
  });

  it('refuses a session whose authenticator app an admin has reset, in the rule’s words, so no token outlives the rule', async () => {
    const signedInWithSetUp = async (email: string) => {
      const step = await passwordStep(email);
      expect(step.ChallengeName).toBe('MFA_SETUP');
      const associated = await local.cognito().send(new AssociateSoftwareTokenCommand({ Session: step.Session }));
      const verified = await local.cognito().send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: freshCode(associated.SecretCode!) }));
      const done = await local.cognito().send(
        new RespondToAuthChallengeCommand({
          ClientId: local.outputs.userPoolClientId,
          ChallengeName: 'MFA_SETUP',
          Session: verified.Session,
          ChallengeResponses: { USERNAME: email },
        }),
      );
      return done.AuthenticationResult!.IdToken!;
    };
    const admin = await signedInWithSetUp('admin@demo.tidewell.local');
    const frontDesk = await signedInWithSetUp('employee@demo.tidewell.local');
    expect(await patientsStatus(frontDesk)).toBe(200);

    const frontDeskId = decodeJwt(frontDesk).sub!;
    const reset = await fetch(`${local.outputs.apiUrl}/v1/practices/users/${frontDeskId}/mfa`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(reset.status).toBeLessThan(300);
    // The token was issued after the code; it carries no sign of it, so the API asks the pool.
    const refused = await fetch(`${local.outputs.apiUrl}/v1/patients`, { headers: { authorization: `Bearer ${frontDesk}` } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      reason: 'mfa_required',
      message: 'Set up two-step sign-in (an authenticator app) before you continue: this practice requires it.',
    });
    expect(await patientsStatus(admin)).toBe(200);
  });
});
