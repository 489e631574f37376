import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it, vi } from 'vitest';
import { recordingFetch as recordingFetchWire, SIGNING_TIME, TEST_CREDENTIALS, verifySigV4 } from '../../../test/support/aws-wire.js';
import { NodeSha256 } from './node-sha256.js';
import {
  AppSyncNotificationPublisher,
  LOCAL_PUBLISHER_SECRET_HEADER,
  LocalNotificationPublisher,
  notificationPublisherFromEnv,
  type NotificationEvent,
} from './notification-publisher.js';

function aNotification(overrides: Partial<NotificationEvent> = {}): NotificationEvent {
  return {
    practiceId: 'prc_demo_tidewell',
    sk: 'NOTIFICATION#n1',
    notificationId: 'n1',
    notificationType: 'PHONE_CALL',
    notificationStatus: 'UNREAD',
    createdAt: '2025-03-01T10:00:00.000Z',
    data: { from: '+15550001111', to: '+15550002222', voicemailKey: 'vm/1.wav' },
    ...overrides,
  };
}

function recordingFetch(responseBody: unknown = { data: { createNotification: { practiceId: 'prc_demo_tidewell' } } }, status = 200) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init! });
    return new Response(JSON.stringify(responseBody), { status, headers: { 'content-type': 'application/json' } });
  });
  return { impl: impl as unknown as typeof fetch, calls };
}

describe('AppSyncNotificationPublisher', () => {
  const url = 'https://abcdefghijklmnopqrstuvwxyz.appsync-api.us-east-1.amazonaws.com/graphql';
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };

  it('posts the createNotification mutation with its variables, signed with SigV4 for appsync', async () => {
    const fetchMock = recordingFetch();
    const publisher = new AppSyncNotificationPublisher({ url, region: 'us-east-1', credentials, fetch: fetchMock.impl });

    await publisher.publishCreated(aNotification());

    expect(fetchMock.calls).toHaveLength(1);
    const [{ url: calledUrl, init }] = fetchMock.calls;
    expect(calledUrl).toBe(url);
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/appsync\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(headers['x-amz-security-token']).toBe('session-token');
    expect(headers['content-type']).toBe('application/json');
    expect(headers.host).toBe('abcdefghijklmnopqrstuvwxyz.appsync-api.us-east-1.amazonaws.com');

    const body = JSON.parse(String(init.body));
    expect(body.query).toMatch(
      /^mutation CreateNotification\(\$input: NotificationInput!\) \{ createNotification\(input: \$input\) \{ practiceId sk notificationId .* data \} \}$/,
    );
    expect(body.variables).toEqual({
      input: {
        practiceId: 'prc_demo_tidewell',
        sk: 'NOTIFICATION#n1',
        notificationId: 'n1',
        notificationType: 'PHONE_CALL',
        notificationStatus: 'UNREAD',
        createdAt: '2025-03-01T10:00:00.000Z',
        data: JSON.stringify({ from: '+15550001111', to: '+15550002222', voicemailKey: 'vm/1.wav' }),
      },
    });
  });

  it('signs the body it sends: a different body gives a different signature', async () => {
    const first = recordingFetch();
    const second = recordingFetch();
    const fixedTime = new Date('2025-03-01T10:00:00Z');
    vi.useFakeTimers({ now: fixedTime, toFake: ['Date'] });
    try {
      await new AppSyncNotificationPublisher({ url, region: 'us-east-1', credentials, fetch: first.impl }).publishUpdated(aNotification());
      await new AppSyncNotificationPublisher({ url, region: 'us-east-1', credentials, fetch: second.impl }).publishUpdated(
        aNotification({ notificationStatus: 'READ' }),
      );
    } finally {
      vi.useRealTimers();
    }
    const auth = (call: { init: RequestInit }) => (call.init.headers as Record<string, string>).authorization;
    expect(JSON.parse(String(first.calls[0].init.body)).query).toContain('updateNotification(input: $input)');
    expect(auth(first.calls[0])).not.toBe(auth(second.calls[0]));

    // An independent signer over exactly the sent request reproduces the sent signature.
    const sent = first.calls[0].init;
    const sentHeaders = sent.headers as Record<string, string>;
    const expected = await new SignatureV4({ service: 'appsync', region: 'us-east-1', credentials, sha256: Sha256 }).sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: sentHeaders.host,
        path: '/graphql',
        headers: { host: sentHeaders.host, 'content-type': 'application/json' },
        body: String(sent.body),
      },
      { signingDate: new Date(sentHeaders['x-amz-date'].replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')) },
    );
    expect(auth(first.calls[0])).toBe(expected.headers.authorization);
  });

  it('fails when AppSync answers with GraphQL errors', async () => {
    const fetchMock = recordingFetch({ data: null, errors: [{ errorType: 'UnauthorizedException', message: 'Not Authorized' }] });
    const publisher = new AppSyncNotificationPublisher({ url, region: 'us-east-1', credentials, fetch: fetchMock.impl });
    await expect(publisher.publishCreated(aNotification())).rejects.toThrow(/UnauthorizedException Not Authorized/);
  });
});

describe('LocalNotificationPublisher', () => {
  it('posts the same mutation with the local secret header and no AWS signature', async () => {
    const fetchMock = recordingFetch();
    const publisher = new LocalNotificationPublisher({ url: 'http://localhost:3000/graphql', secret: 's3cret', fetch: fetchMock.impl });

    await publisher.publishCreated(aNotification());

    const headers = fetchMock.calls[0].init.headers as Record<string, string>;
    expect(headers[LOCAL_PUBLISHER_SECRET_HEADER]).toBe('s3cret');
    expect(headers.authorization).toBeUndefined();
    expect(JSON.parse(String(fetchMock.calls[0].init.body)).query).toContain('createNotification(input: $input)');
  });
});

describe('notificationPublisherFromEnv', () => {
  it('chooses the local publisher only when the local secret is present', () => {
    expect(notificationPublisherFromEnv({ APPSYNC_URL: 'http://localhost:1/graphql', APPSYNC_LOCAL_SECRET: 'x' })).toBeInstanceOf(LocalNotificationPublisher);
    expect(notificationPublisherFromEnv({ APPSYNC_URL: 'https://x/graphql', AWS_REGION: 'us-east-1' })).toBeInstanceOf(AppSyncNotificationPublisher);
    expect(() => notificationPublisherFromEnv({})).toThrow('APPSYNC_URL is not set');
  });
});

describe('the SigV4 signing every hand-written AWS call uses (SignatureV4 with NodeSha256)', () => {
  // AWS's SigV4 test suite (aws-sig-v4-test-suite): example credentials, 2015-08-30T12:36:00Z, us-east-1, service "service".
  const suite = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const vectors: { name: string; method: string; path: string; query?: Record<string, string>; signature: string }[] = [
    { name: 'get-vanilla', method: 'GET', path: '/', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
    {
      name: 'get-vanilla-query-order-key-case',
      method: 'GET',
      path: '/',
      query: { Param2: 'value2', Param1: 'value1' },
      signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    },
    // The suite's request line carries the raw UTF-8 path.
    { name: 'get-utf8', method: 'GET', path: '/\u1234', signature: '8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85' },
    { name: 'post-vanilla', method: 'POST', path: '/', signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b' },
    {
      name: 'post-vanilla-query',
      method: 'POST',
      path: '/',
      query: { Param1: 'value1' },
      signature: '28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11',
    },
  ];

  for (const v of vectors) {
    it(`gives AWS's published signature for ${v.name}`, async () => {
      // The suite's requests carry no payload-hash header; the adapters add one (as the SDK does), which AWS accepts.
      const signer = new SignatureV4({ service: 'service', region: 'us-east-1', credentials: suite, sha256: NodeSha256, applyChecksum: false });
      const signed = await signer.sign(
        {
          method: v.method,
          protocol: 'https:',
          hostname: 'example.amazonaws.com',
          path: v.path,
          query: v.query ?? {},
          headers: { host: 'example.amazonaws.com' },
        },
        { signingDate: new Date('2015-08-30T12:36:00Z') },
      );
      expect(signed.headers.authorization).toBe(
        `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${v.signature}`,
      );
      // The contract tests' own SigV4 check, written from the documented algorithm, accepts the vector.
      const wire = {
        method: v.method,
        protocol: 'https:',
        host: 'example.amazonaws.com',
        path: v.path,
        query: v.query ?? {},
        headers: signed.headers as Record<string, string>,
        body: Buffer.alloc(0),
      };
      expect(verifySigV4(wire, 'service', suite.secretAccessKey)).toBe(true);
      expect(verifySigV4({ ...wire, query: { ...wire.query, extra: '1' } }, 'service', suite.secretAccessKey)).toBe(false);
    });
  }

  it('signs the AppSync publish as AWS documents it: a POST to /graphql for the appsync service, the body hashed in, valid for exactly what is sent', async () => {
    vi.useFakeTimers({ now: SIGNING_TIME, toFake: ['Date'] });
    try {
      const { requests, fetch } = recordingFetchWire({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"data":{"createNotification":{"practiceId":"prc_demo_tidewell"}}}',
      });
      await new AppSyncNotificationPublisher({
        url: 'https://abcdefghijklmnopqrstuvwxyz.appsync-api.us-east-1.amazonaws.com/graphql',
        region: 'us-east-1',
        credentials: TEST_CREDENTIALS,
        fetch,
      }).publishCreated(aNotification());
      const sent = requests[0]!;
      expect(sent).toMatchObject({
        method: 'POST',
        protocol: 'https:',
        host: 'abcdefghijklmnopqrstuvwxyz.appsync-api.us-east-1.amazonaws.com',
        path: '/graphql',
        query: {},
      });
      expect(sent.headers).toMatchObject({
        'content-type': 'application/json',
        'x-amz-date': '20261124T083000Z',
        'x-amz-security-token': TEST_CREDENTIALS.sessionToken,
      });
      expect(sent.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261124\/us-east-1\/appsync\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, /,
      );
      expect(verifySigV4(sent, 'appsync')).toBe(true);
      expect(verifySigV4({ ...sent, body: Buffer.concat([sent.body, Buffer.from(' ')]) }, 'appsync')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
