import {
  AdminInitiateAuthCommand,
  AssociateSoftwareTokenCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRequire } from 'node:module';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ensurePoolUser } from '../../infra/local/cognito/provision-pool.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { eventuallyFound } from '../support/eventually.js';
import { runtimeForFile } from '../support/runtime-process.js';
import { totpCode } from '../support/totp.js';

/*
 * The realtime notification subscriptions take only tokens of a finished sign-in for this
 * practice: the runtime's AppSync stand-in with the same check the deployed subscription guard
 * runs (functions/lib/auth/authorize-subscriber.ts), in a demo practice under "mfa": "admins".
 */
const ADMIN = 'admin@demo.tidewell.local';
const PROVIDER = 'provider@demo.tidewell.local';
const OTHER = 'realtime-mfa@other.tidewell.local';

const local = runtimeForFile('realtime-mfa', { mfa: 'admins' });

async function signIn(email: string) {
  const out = await local.cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: local.outputs.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
  expect(out.ChallengeName).toBeUndefined();
  return out.AuthenticationResult!;
}

function freshCode(secret: string): string {
  const intoStep = Date.now() % 30_000;
  return totpCode(secret, intoStep > 25_000 ? Date.now() + 30_000 - intoStep : Date.now());
}

type Outcome = 'subscribed' | 'connection refused' | `refused: ${string}`;

/** Connects and subscribes to this practice's (or `practiceId`'s) new notifications as Amplify does; answers what the socket said. */
async function subscribe(token: string, practiceId = local.runtime.table.practiceId): Promise<Outcome> {
  const url = new URL(local.outputs.graphqlUrl);
  const auth = { host: url.host, Authorization: token };
  const socket = new WebSocket(`ws://${url.host}/graphql/realtime`, ['graphql-ws', `header-${Buffer.from(JSON.stringify(auth)).toString('base64url')}`]);
  const messages: { type?: string; payload?: { errors?: { errorType?: string; message?: string }[] } }[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  try {
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    const connected = await eventuallyFound(
      'the connection answer',
      async () => messages.find((m) => m.type === 'connection_ack' || m.type === 'connection_error'),
      { within: 10_000, every: 25 },
    );
    if (connected.type === 'connection_error') return 'connection refused';
    const query = 'subscription S($practiceId: String!) { onCreateNotification(practiceId: $practiceId) { practiceId notificationId } }';
    socket.send(
      JSON.stringify({ id: 's', type: 'start', payload: { data: JSON.stringify({ query, variables: { practiceId } }), extensions: { authorization: auth } } }),
    );
    const started = await eventuallyFound('the subscription answer', async () => messages.find((m) => m.type === 'start_ack' || m.type === 'error'), {
      within: 10_000,
      every: 25,
    });
    return started.type === 'start_ack' ? 'subscribed' : `refused: ${started.payload?.errors?.[0]?.errorType}`;
  } finally {
    socket.close();
  }
}

describe('realtime subscriptions and the sign-in behind a token', () => {
  it('refuses an admin without TOTP under "admins" until the set-up is done, and never asks a provider', async () => {
    const provider = await signIn(PROVIDER);
    expect(await subscribe(provider.AccessToken!)).toBe('subscribed');
    expect(await subscribe(provider.IdToken!)).toBe('subscribed');

    const admin = await signIn(ADMIN);
    expect(await subscribe(admin.AccessToken!)).toBe('connection refused');
    expect(await subscribe(admin.IdToken!)).toBe('connection refused');

    const { SecretCode } = await local.cognito().send(new AssociateSoftwareTokenCommand({ AccessToken: admin.AccessToken }));
    await local
      .cognito()
      .send(new VerifySoftwareTokenCommand({ AccessToken: admin.AccessToken, UserCode: freshCode(SecretCode!), FriendlyDeviceName: 'phone' }));
    await local
      .cognito()
      .send(new SetUserMFAPreferenceCommand({ AccessToken: admin.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
    expect(await subscribe(admin.AccessToken!)).toBe('subscribed');
  });

  it('gives no tokens without the code: the admin password flow is not enabled for the web client', async () => {
    const refused = await local
      .cognito()
      .send(
        new AdminInitiateAuthCommand({
          UserPoolId: local.outputs.userPoolId,
          ClientId: local.outputs.userPoolClientId,
          AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: ADMIN, PASSWORD: DEMO_PASSWORD },
        }),
      )
      .then(
        () => 'tokens',
        (e: Error) => `${e.name}: ${e.message}`,
      );
    expect(refused).toBe('InvalidParameterException: Auth flow not enabled for this client');
  });

  it("refuses another practice's tokens, for its own practice or this one", async () => {
    await ensurePoolUser(local.cognito(), local.outputs.userPoolId, {
      email: OTHER,
      firstName: 'Other',
      lastName: 'Practice',
      group: 'admin',
      practiceId: 'prc_other_realtime_mfa',
      password: DEMO_PASSWORD,
    });
    const other = await signIn(OTHER);
    expect(decodeJwt(other.IdToken!)['custom:practiceId']).toBe('prc_other_realtime_mfa');
    expect(await subscribe(other.IdToken!)).toBe('connection refused');
    expect(await subscribe(other.IdToken!, 'prc_other_realtime_mfa')).toBe('connection refused');
    expect(await subscribe(other.AccessToken!)).toBe('connection refused');
    // With a good token, a subscription to another practice's notifications is refused too.
    expect(await subscribe((await signIn(PROVIDER)).IdToken!, 'prc_other_realtime_mfa')).toBe('refused: Unauthorized');
  });

  it('refuses an expired token, even one the pool signed', async () => {
    const live = decodeJwt((await signIn(PROVIDER)).IdToken!);
    const { jwk } = createRequire(createRequire(import.meta.url).resolve('cognito-local'))('./keys/cognitoLocal.private.json') as { jwk: JWK };
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ ...live, iat: hourAgo - 3600, auth_time: hourAgo - 3600, exp: hourAgo })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .sign(await importJWK(jwk, 'RS256'));
    const fresh = await new SignJWT({ ...live }).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).sign(await importJWK(jwk, 'RS256'));
    // The same claims with a live expiry are taken: only the expiry differs.
    expect(await subscribe(fresh)).toBe('subscribed');
    expect(await subscribe(expired)).toBe('connection refused');
  });
});
