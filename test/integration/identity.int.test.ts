import {
  AdminListGroupsForUserCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { notificationPublisherFromEnv, type NotificationEvent } from '../../functions/lib/adapters/notification-publisher.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { holdsFor, untilTime } from '../support/eventually.js';
import { api, createTestUser, practiceAuditEntries, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';
import { subscribeNotifications } from './notifications-socket.js';

const ADMIN = 'admin@demo.tidewell.local';
const PATIENTS = '/v1/patients';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function cognito(): CognitoIdentityProviderClient {
  const { cognitoEndpoint, region } = stackOutputs();
  return new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** All three tokens of a password sign-in, as the local web gets them. */
async function tokensOf(email: string, password = DEMO_PASSWORD) {
  const out = await cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stackOutputs().userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const result = out.AuthenticationResult!;
  return { id: result.IdToken!, access: result.AccessToken!, refresh: result.RefreshToken! };
}

/** What the pool answers a sign-in: 'ok' or the error's name and message. */
async function signInOutcome(email: string, password: string): Promise<string> {
  try {
    await tokensOf(email, password);
    return 'ok';
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

async function poolGroupsOf(email: string): Promise<string[]> {
  const out = await cognito().send(new AdminListGroupsForUserCommand({ UserPoolId: stackOutputs().userPoolId, Username: email }));
  return (out.Groups ?? []).map((g) => g.GroupName!).sort();
}

async function refusalRows(userId: string): Promise<Record<string, unknown>[]> {
  return practiceAuditEntries({
    FilterExpression: 'actorUserId = :u AND #action = :refused',
    ExpressionAttributeNames: { '#action': 'action' },
    ExpressionAttributeValues: { ':u': userId, ':refused': 'refused' },
  });
}

/** A token issued in the same second as a sign-out counts as signed out; tests step past that second. */
const nextSecond = () => untilTime(Math.floor(Date.now() / 1000) * 1000 + 1000);

let admin: string;
beforeAll(async () => {
  admin = await signIn(ADMIN);
});

describe('finding 1: access follows the user record', () => {
  it('an admin setting a user to no_access or deleted ends their access at once, disables the pool user, and a restore brings it back', async () => {
    const email = 'revoked-staff@demo.tidewell.local';
    const token = await createTestUser({ email, group: 'employee' });
    const userId = String(claimsOf(token).sub);
    expect((await api(token, 'GET', PATIENTS)).status).toBe(200);

    expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { permissionGroup: 'no_access' })).status).toBe(200);
    const noAccess = await api(token, 'GET', PATIENTS);
    expect(noAccess.status).toBe(403);
    expect(noAccess.body).toEqual({ message: 'Your account does not have access to this practice.', reason: 'no_access' });
    expect(await poolGroupsOf(email)).toEqual(['no_access']);
    expect(await signInOutcome(email, DEMO_PASSWORD)).toBe('NotAuthorizedException: User is disabled.');

    expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { permissionGroup: 'employee', userStatus: 'deleted' })).status).toBe(200);
    const removed = await api(token, 'POST', PATIENTS, { firstName: 'Should', lastName: 'NotSave' });
    expect(removed.status).toBe(401);
    expect(removed.body).toEqual({ message: 'Your account has been removed from this practice.', reason: 'user_removed' });
    expect(await signInOutcome(email, DEMO_PASSWORD)).toBe('NotAuthorizedException: User is disabled.');

    expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { userStatus: 'active' })).status).toBe(200);
    await nextSecond();
    // The pre-removal token stays dead; a new sign-in works with the record's role.
    expect((await api(token, 'GET', PATIENTS)).status).toBe(401);
    const fresh = await signIn(email);
    expect(claimsOf(fresh)['cognito:groups']).toEqual(['employee']);
    expect((await api(fresh, 'GET', PATIENTS)).status).toBe(200);

    const reasons = (await refusalRows(userId)).map((r) => [r.route, r.reason, r.status]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['GET /v1/patients', 'no_access', 403],
        ['POST /v1/patients', 'user_removed', 401],
      ]),
    );
  });

  it('a change of role applies to the token the user already holds, and the pool groups follow the record', async () => {
    const email = 'promoted-staff@demo.tidewell.local';
    const token = await createTestUser({ email, group: 'employee' });
    const userId = String(claimsOf(token).sub);
    expect((await api(token, 'PUT', '/v1/practices/feature-gates', { flags: {} })).status).toBe(403);

    expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { permissionGroup: 'admin' })).status).toBe(200);
    expect((await api(token, 'PUT', '/v1/practices/feature-gates', { flags: {} })).status).toBe(200);
    expect(await poolGroupsOf(email)).toEqual(['admin']);

    expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { permissionGroup: 'provider' })).status).toBe(200);
    expect((await api(token, 'PUT', '/v1/practices/feature-gates', { flags: {} })).status).toBe(403);
    expect(await poolGroupsOf(email)).toEqual(['provider']);
    expect(claimsOf(await signIn(email))['cognito:groups']).toEqual(['provider']);

    const [roleRefusal] = (await refusalRows(userId)).filter((r) => r.reason === 'role');
    expect(roleRefusal).toMatchObject({ action: 'refused', entity: 'access', route: 'PUT /v1/practices/feature-gates', status: 403, actorEmail: email });
  });

  it("records a refused token of another practice in this practice's trail", async () => {
    const token = await createTestUser({ email: 'intruder@other.tidewell.local', group: 'admin', practiceId: 'prc_other_identity' });
    const res = await api(token, 'GET', `${PATIENTS}/p-does-not-matter`);
    expect(res.status).toBe(403);
    const [row] = await refusalRows(String(claimsOf(token).sub));
    expect(row).toMatchObject({
      reason: 'other_practice',
      actorPracticeId: 'prc_other_identity',
      route: 'GET /v1/patients/{patientId}',
      patientId: 'p-does-not-matter',
    });
  });
});

describe('finding 3: the local pool refuses what the deployed pool refuses', () => {
  it('refuses self sign-up', async () => {
    const attempt = cognito().send(
      new SignUpCommand({
        ClientId: stackOutputs().userPoolClientId,
        Username: 'walk-in@demo.tidewell.local',
        Password: DEMO_PASSWORD,
        UserAttributes: [
          { Name: 'email', Value: 'walk-in@demo.tidewell.local' },
          { Name: 'custom:practiceId', Value: stackEndpoints().practiceId },
        ],
      }),
    );
    await expect(attempt).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'SignUp is not permitted for this user pool' });
    expect(await signInOutcome('walk-in@demo.tidewell.local', DEMO_PASSWORD)).toBe('NotAuthorizedException: Incorrect username or password.');
  });

  it('refuses a user changing their own custom:practiceId', async () => {
    await createTestUser({ email: 'mover@other.tidewell.local', group: 'admin', practiceId: 'prc_other_identity' });
    const { access } = await tokensOf('mover@other.tidewell.local');
    const attempt = cognito().send(
      new UpdateUserAttributesCommand({ AccessToken: access, UserAttributes: [{ Name: 'custom:practiceId', Value: stackEndpoints().practiceId }] }),
    );
    await expect(attempt).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' });
    const again = await signIn('mover@other.tidewell.local');
    expect(claimsOf(again)['custom:practiceId']).toBe('prc_other_identity');
    expect((await api(again, 'GET', PATIENTS)).status).toBe(403);
  });

  it('answers an unknown user and a wrong password alike, and locks out repeated failures', async () => {
    await createTestUser({ email: 'forgetful@demo.tidewell.local', group: 'employee' });
    const unknown = await signInOutcome('nobody-here@demo.tidewell.local', 'Wrong-Password-1!');
    const wrong = await signInOutcome('forgetful@demo.tidewell.local', 'Wrong-Password-1!');
    expect(unknown).toBe('NotAuthorizedException: Incorrect username or password.');
    expect(wrong).toBe(unknown);
    for (let i = 0; i < 5; i++) await signInOutcome('forgetful@demo.tidewell.local', 'Wrong-Password-1!');
    // Even the right password is refused while the lockout lasts.
    expect(await signInOutcome('forgetful@demo.tidewell.local', DEMO_PASSWORD)).toBe('NotAuthorizedException: Password attempts exceeded');
  });
});

describe('finding 4: tokens end with sign-out and live at most an hour', () => {
  it('issues ID and access tokens valid for at most 60 minutes', async () => {
    const { id, access } = await tokensOf(ADMIN);
    for (const token of [id, access]) {
      const { iat, exp } = claimsOf(token) as { iat: number; exp: number };
      expect(exp - iat).toBeLessThanOrEqual(3600);
    }
  });

  it('refuses the ID token after GlobalSignOut, and the refresh token no longer works', async () => {
    await createTestUser({ email: 'leaver@demo.tidewell.local', group: 'provider' });
    const tokens = await tokensOf('leaver@demo.tidewell.local');
    expect((await api(tokens.id, 'GET', PATIENTS)).status).toBe(200);
    await cognito().send(new GlobalSignOutCommand({ AccessToken: tokens.access }));
    const after = await api(tokens.id, 'GET', PATIENTS);
    expect(after.status).toBe(401);
    expect(after.body.reason).toBe('signed_out');
    const refresh = cognito().send(
      new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: stackOutputs().userPoolClientId, AuthParameters: { REFRESH_TOKEN: tokens.refresh } }),
    );
    await expect(refresh).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    // A sign-in right after is not caught by the sign-out (the pool waits out the sign-out's second).
    expect((await api(await signIn('leaver@demo.tidewell.local'), 'GET', PATIENTS)).status).toBe(200);
  });

  it('refuses the ID token after RevokeToken and after AdminUserGlobalSignOut', async () => {
    await createTestUser({ email: 'revoker@demo.tidewell.local', group: 'provider' });
    const first = await tokensOf('revoker@demo.tidewell.local');
    await cognito().send(new RevokeTokenCommand({ Token: first.refresh, ClientId: stackOutputs().userPoolClientId }));
    expect((await api(first.id, 'GET', PATIENTS)).status).toBe(401);

    const second = await tokensOf('revoker@demo.tidewell.local');
    expect((await api(second.id, 'GET', PATIENTS)).status).toBe(200);
    await cognito().send(new AdminUserGlobalSignOutCommand({ UserPoolId: stackOutputs().userPoolId, Username: 'revoker@demo.tidewell.local' }));
    expect((await api(second.id, 'GET', PATIENTS)).status).toBe(401);
  });
});

describe('logout', () => {
  it("ends every token the user holds, through the API, so the app's own logout works the same deployed", async () => {
    const token = await createTestUser({ email: 'logout@demo.tidewell.local', group: 'employee' });
    const copy = await signIn('logout@demo.tidewell.local');
    expect((await api(token, 'POST', '/v1/practices/users/me/sign-out')).status).toBe(204);
    expect((await api(token, 'GET', PATIENTS)).status).toBe(401);
    expect((await api(copy, 'GET', PATIENTS)).body).toEqual({ message: 'Your session has ended. Please sign in again.', reason: 'signed_out' });
  });
});

describe('finding 10 (AppSync half): realtime subscriptions follow the same rule', () => {
  const publisher = () =>
    notificationPublisherFromEnv({ APPSYNC_URL: stackOutputs().graphqlUrl, APPSYNC_LOCAL_SECRET: stackEndpoints().realtimePublisherSecret });
  const event = (id: string): NotificationEvent => ({
    practiceId: stackEndpoints().practiceId,
    sk: `NOTIFICATION#${id}`,
    notificationId: id,
    notificationType: 'TASK',
    notificationStatus: 'UNREAD',
    text: 'Call the lab back',
    createdAt: new Date().toISOString(),
  });

  it('refuses a no_access user, and a user removed while subscribed receives nothing more', async () => {
    await expect(
      subscribeNotifications(stackOutputs().graphqlUrl, (await tokensOf('noaccess@demo.tidewell.local')).access, stackEndpoints().practiceId),
    ).rejects.toThrow(/UnauthorizedException/);

    const email = 'subscriber@demo.tidewell.local';
    const token = await createTestUser({ email, group: 'employee' });
    const userId = String(claimsOf(token).sub);
    const watcher = await subscribeNotifications(stackOutputs().graphqlUrl, (await tokensOf(email)).access, stackEndpoints().practiceId);
    try {
      await publisher().publishCreated(event('rt-before'));
      await watcher.next('onCreateNotification', 'rt-before');

      expect((await api(admin, 'PUT', `/v1/practices/users/${userId}`, { userStatus: 'deleted' })).status).toBe(200);
      await publisher().publishCreated(event('rt-after'));
      await publisher().publishUpdated(event('rt-after'));
      // Both were published (awaited) after the removal; an event let through would follow within milliseconds.
      await holdsFor(
        'nothing more for the removed user',
        300,
        () => watcher.received.length,
        (n) => n === 1,
        { every: 25 },
      );
      expect(watcher.received.map((r) => r.notification.notificationId)).toEqual(['rt-before']);
    } finally {
      watcher.close();
    }
    const [refused] = (await refusalRows(userId)).filter((r) => String(r.route).startsWith('Subscription.'));
    expect(refused).toBeUndefined();
    // A new subscription with the old token is refused and audited.
    await expect(subscribeNotifications(stackOutputs().graphqlUrl, token, stackEndpoints().practiceId)).rejects.toThrow(/UnauthorizedException/);
    const rows = await refusalRows(userId);
    expect(rows.map((r) => [r.route, r.reason])).toContainEqual(['Subscription.connection', 'user_removed']);
  });
});
