import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { Amplify } from 'aws-amplify';
import { generateClient } from 'aws-amplify/api';
import { decodeJWT } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { LOCAL_PUBLISHER_SECRET_HEADER, notificationPublisherFromEnv, type NotificationEvent } from '../../functions/lib/adapters/notification-publisher.js';
import { createCognitoTokenVerifier } from '../../infra/local/realtime/cognito-token-verifier.js';
import { attachRealtime, type RealtimeServer } from '../../infra/local/realtime/realtime-server.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { installLocalRealtimeRewrite } from '../../web/src/lib/local-realtime.js';
import { holdsFor } from '../support/eventually.js';
import { createTestUser, stackEndpoints, stackOutputs } from '../support/local-stack.js';

// Amplify's realtime client expects a browser WebSocket; Node 20 has none.
(globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;

const OTHER_PRACTICE = 'prc_other_realtime';
const SUBSCRIPTION = /* GraphQL */ `
  subscription OnCreateNotification($practiceId: String!) {
    onCreateNotification(practiceId: $practiceId) {
      practiceId
      notificationId
      notificationType
      notificationStatus
      text
      createdAt
      data
    }
  }
`;

type Received = { data: { onCreateNotification: Record<string, unknown> } };

/** The access token, as Amplify's user-pool auth sends it to AppSync. */
async function accessTokenOf(email: string): Promise<string> {
  const outputs = stackOutputs();
  const cognito = new CognitoIdentityProviderClient({
    endpoint: outputs.cognitoEndpoint,
    region: outputs.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const result = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: outputs.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
  return result.AuthenticationResult!.AccessToken!;
}

function aNotification(practiceId: string, id: string): NotificationEvent {
  return {
    practiceId,
    sk: `NOTIFICATION#${id}`,
    notificationId: id,
    notificationType: 'PHONE_CALL',
    notificationStatus: 'UNREAD',
    text: 'Missed call',
    createdAt: '2025-03-01T10:00:00.000Z',
    data: { from: '+15550001111', to: '+15550002222' },
  };
}

/**
 * A second, independent socket through the very provider class Amplify's client uses in the
 * browser (generateClient shares one socket per endpoint), authenticated as another user.
 */
async function isolatedSubscription(graphqlUrl: string, token: string, practiceId: string) {
  const modulePath = '@aws-amplify/api-graphql/dist/esm/Providers/AWSAppSyncRealTimeProvider/index.mjs';
  const { AWSAppSyncRealTimeProvider } = await import(/* @vite-ignore */ `${process.cwd()}/node_modules/${modulePath}`);
  const provider = new AWSAppSyncRealTimeProvider();
  const events: Received[] = [];
  let settle!: (outcome: { ready: true } | { error: string }) => void;
  const outcome = new Promise<{ ready: true } | { error: string }>((resolve) => (settle = resolve));
  const subscription = provider
    .subscribe({
      query: SUBSCRIPTION,
      variables: { practiceId },
      appSyncGraphqlEndpoint: graphqlUrl,
      region: stackOutputs().region,
      authenticationType: 'userPool',
      ctx: { fetchAuthSession: async () => ({ tokens: { accessToken: { toString: () => token } } }) },
      onSubscriptionReady: () => settle({ ready: true }),
    })
    .subscribe({
      next: (value: Received) => events.push(value),
      error: (error: unknown) => settle({ error: JSON.stringify(error) }),
    });
  return {
    events,
    outcome,
    close: async () => {
      subscription.unsubscribe();
      await provider.close().catch(() => undefined);
    },
  };
}

describe('AppSync-compatible realtime with Amplify v6 and the local user pool', () => {
  let server: Server;
  let realtime: RealtimeServer;
  let graphqlUrl: string;
  let providerAccessToken: string;
  let otherPracticeToken: string;
  const demoPractice = () => stackEndpoints().practiceId;

  beforeAll(async () => {
    const outputs = stackOutputs();
    server = createServer(async (req, res) => {
      if (!(await realtime.handleHttp(req, res))) res.writeHead(404).end();
    });
    realtime = attachRealtime(server, {
      path: '/graphql',
      verifyToken: createCognitoTokenVerifier({
        cognitoEndpoint: outputs.cognitoEndpoint,
        userPoolId: outputs.userPoolId,
        clientId: outputs.userPoolClientId,
        region: outputs.region,
      }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    graphqlUrl = `http://localhost:${(server.address() as AddressInfo).port}/graphql`;
    installLocalRealtimeRewrite(graphqlUrl);

    providerAccessToken = await accessTokenOf('provider@demo.tidewell.local');
    await createTestUser({ email: 'realtime-other@other.tidewell.local', group: 'provider', practiceId: OTHER_PRACTICE });
    otherPracticeToken = await accessTokenOf('realtime-other@other.tidewell.local');
  });

  afterAll(async () => {
    await realtime?.close();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('delivers a published notification to a same-practice Amplify subscriber and nothing to another practice', async () => {
    Amplify.configure(
      { API: { GraphQL: { endpoint: graphqlUrl, region: stackOutputs().region, defaultAuthMode: 'userPool' } } },
      { Auth: { tokenProvider: { getTokens: async () => ({ accessToken: decodeJWT(providerAccessToken) }) } } },
    );
    const connected = new Promise<void>((resolve) => {
      const stop = Hub.listen('api', ({ payload }) => {
        if (payload.event === 'ConnectionStateChange' && (payload.data as { connectionState: string }).connectionState === 'Connected') {
          stop();
          resolve();
        }
      });
    });
    const received: Received[] = [];
    const client = generateClient();
    const subscription = (
      client.graphql({ query: SUBSCRIPTION, variables: { practiceId: demoPractice() } }) as unknown as {
        subscribe(o: { next(v: Received): void; error(e: unknown): void }): { unsubscribe(): void };
      }
    ).subscribe({ next: (value) => received.push(value), error: () => undefined });
    // Every provider reports on the same Hub channel: open the second socket only after the first is up.
    await connected;
    const other = await isolatedSubscription(graphqlUrl, otherPracticeToken, OTHER_PRACTICE);
    try {
      expect(await other.outcome).toEqual({ ready: true });

      const delivered = await realtime.publish('createNotification', aNotification(demoPractice(), 'n-1'));
      // Through the notification publisher adapter, over HTTP, as handlers will publish locally.
      await notificationPublisherFromEnv({ APPSYNC_URL: graphqlUrl, APPSYNC_LOCAL_SECRET: realtime.publisherSecret }).publishCreated(
        aNotification(demoPractice(), 'n-2'),
      );

      expect(delivered).toBe(1);
      await expect.poll(() => received.length).toBe(2);
      expect(received[0].data.onCreateNotification).toEqual({
        practiceId: demoPractice(),
        notificationId: 'n-1',
        notificationType: 'PHONE_CALL',
        notificationStatus: 'UNREAD',
        text: 'Missed call',
        createdAt: '2025-03-01T10:00:00.000Z',
        data: JSON.stringify({ from: '+15550001111', to: '+15550002222' }),
      });
      expect(received[1].data.onCreateNotification.notificationId).toBe('n-2');
      // Both went out before n-2 reached the same-practice socket; a leak to the other practice's
      // socket on the same local server would arrive within milliseconds of that.
      await holdsFor(
        "nothing on the other practice's socket",
        200,
        () => other.events.length,
        (n) => n === 0,
        { every: 25 },
      );
      expect(other.events).toEqual([]);
    } finally {
      subscription.unsubscribe();
      await other.close();
    }
  });

  it("refuses a subscription to another practice's notifications", async () => {
    const intruder = await isolatedSubscription(graphqlUrl, otherPracticeToken, demoPractice());
    try {
      const outcome = await intruder.outcome;
      expect('error' in outcome && outcome.error).toMatch(/Not Authorized to access onCreateNotification on type Subscription/);
      expect(await realtime.publish('createNotification', aNotification(demoPractice(), 'n-3'))).toBe(0);
      expect(intruder.events).toEqual([]);
    } finally {
      await intruder.close();
    }
  });

  it('refuses a connection with a bad token and one of a no_access user', async () => {
    const [header, payload] = providerAccessToken.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    for (const token of [forged, 'garbage', await accessTokenOf('noaccess@demo.tidewell.local')]) {
      const refused = await isolatedSubscription(graphqlUrl, token, demoPractice());
      try {
        const outcome = await refused.outcome;
        expect('error' in outcome && outcome.error).toMatch(/UnauthorizedException/);
      } finally {
        await refused.close();
      }
    }
  });

  it('accepts mutations only from the local publisher that holds the shared secret', async () => {
    const body = JSON.stringify({ query: 'mutation { __typename }' });
    const anonymous = await fetch(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const wrong = await fetch(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', [LOCAL_PUBLISHER_SECRET_HEADER]: 'guess' }, body });
    expect(anonymous.status).toBe(401);
    expect(wrong.status).toBe(401);
    await expect(
      notificationPublisherFromEnv({ APPSYNC_URL: graphqlUrl, APPSYNC_LOCAL_SECRET: realtime.publisherSecret }).publishCreated({
        ...aNotification(demoPractice(), 'n-4'),
        notificationType: 'NOT_A_TYPE' as never,
      }),
    ).rejects.toThrow(/Notification publish failed/);
  });
});
