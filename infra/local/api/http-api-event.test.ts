import { describe, expect, it } from 'vitest';
import { apiGatewayTime, buildHttpApiEvent, type EventContext, type LocalRequest } from './http-api-event.js';
import { flattenClaims } from '../../../functions/lib/auth/verify-token.js';
import { toHttpResult } from './lambda-result.js';

function request(overrides: Partial<LocalRequest> = {}): LocalRequest {
  return {
    method: 'get',
    rawPath: '/v1/patients/pt%201',
    rawQueryString: 'q=555&status=DELETED&tag=a&tag=b',
    headers: { host: 'localhost:3000', 'user-agent': 'vitest', cookie: 'a=1; b=2', accept: 'application/json' },
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.1',
    domainName: 'localhost:3000',
    protocol: 'HTTP/1.1',
    ...overrides,
  };
}

const context: EventContext = {
  routeKey: 'GET /v1/patients/{patientId}',
  pathParameters: { patientId: 'pt 1' },
  authorizer: { claims: { sub: 'u1', 'cognito:groups': '[provider]' }, scopes: null },
  requestId: 'req-1',
  now: new Date(Date.UTC(2026, 2, 12, 19, 3, 58)),
  accountId: '000000000000',
  apiId: 'local-demo',
};

describe('buildHttpApiEvent', () => {
  it('builds a payload 2.0 event as API Gateway does', () => {
    const event = buildHttpApiEvent(request(), context);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /v1/patients/{patientId}',
      rawPath: '/v1/patients/pt%201',
      rawQueryString: 'q=555&status=DELETED&tag=a&tag=b',
      cookies: ['a=1', 'b=2'],
      queryStringParameters: { q: '555', status: 'DELETED', tag: 'a,b' },
      pathParameters: { patientId: 'pt 1' },
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'GET', path: '/v1/patients/pt%201', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
        stage: '$default',
        routeKey: 'GET /v1/patients/{patientId}',
        time: '12/Mar/2026:19:03:58 +0000',
        timeEpoch: context.now.getTime(),
        authorizer: { jwt: { claims: { sub: 'u1', 'cognito:groups': '[provider]' }, scopes: null } },
      },
    });
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers.accept).toBe('application/json');
    expect(event.body).toBeUndefined();
  });

  it('leaves out absent query and path parameters, and keeps a JSON body as text', () => {
    const event = buildHttpApiEvent(
      request({ rawQueryString: '', body: Buffer.from('{"a":1}'), headers: { 'content-type': 'application/json; charset=utf-8' } }),
      { ...context, pathParameters: {} },
    );
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.body).toBe('{"a":1}');
    expect(event.isBase64Encoded).toBe(false);
  });

  it('base64-encodes a binary body', () => {
    const event = buildHttpApiEvent(request({ body: Buffer.from([0, 1, 2]), headers: { 'content-type': 'application/pdf' } }), context);
    expect(event.isBase64Encoded).toBe(true);
    expect(event.body).toBe('AAEC');
  });
});

describe('flattenClaims', () => {
  it('turns arrays into "[a b]" and numbers and booleans into strings', () => {
    expect(flattenClaims({ 'cognito:groups': ['admin', 'provider'], exp: 1700000000, email_verified: true, sub: 'u1' })).toEqual({
      'cognito:groups': '[admin provider]',
      exp: '1700000000',
      email_verified: 'true',
      sub: 'u1',
    });
  });
});

describe('toHttpResult', () => {
  it('uses a result with a statusCode as it is, decoding base64 bodies', () => {
    const result = toHttpResult({ statusCode: 201, headers: { 'Content-Type': 'text/plain' }, cookies: ['s=1'], body: 'aGk=', isBase64Encoded: true });
    expect(result).toEqual({ statusCode: 201, headers: { 'content-type': 'text/plain' }, cookies: ['s=1'], body: Buffer.from('hi') });
  });

  it('answers a plain object as a 200 JSON body', () => {
    const result = toHttpResult({ items: [] });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.body.toString()).toBe('{"items":[]}');
  });

  it('turns a result with a non-numeric statusCode into a 500', () => {
    expect(toHttpResult({ statusCode: 'ok' }).statusCode).toBe(500);
  });
});

describe('apiGatewayTime', () => {
  it('pads day and time fields', () => {
    expect(apiGatewayTime(new Date(Date.UTC(2026, 0, 5, 3, 4, 5)))).toBe('05/Jan/2026:03:04:05 +0000');
  });
});
