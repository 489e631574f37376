import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import type { AuthorizerResult } from './jwt-authorizer.js';

export interface LocalRequest {
  method: string;
  /** Path as the client sent it (still percent-encoded), without the local /api prefix. */
  rawPath: string;
  rawQueryString: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
  domainName: string;
  protocol: string;
}

export interface EventContext {
  routeKey: string;
  pathParameters: Record<string, string>;
  /** Absent (or null, a function URL's event) where no authorizer ran: the event then has no authorizer field, as in AWS. */
  authorizer?: AuthorizerResult | null;
  requestId: string;
  now: Date;
  accountId: string;
  apiId: string;
}

const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|x-www-form-urlencoded|javascript|graphql))/i;

/** API Gateway HTTP API payload format 2.0, field for field. */
export function buildHttpApiEvent(req: LocalRequest, ctx: EventContext): APIGatewayProxyEventV2WithJWTAuthorizer {
  const headers = eventHeaders(req);
  const cookies = cookieList(req.headers.cookie);
  const queryStringParameters = queryParameters(req.rawQueryString);
  const hasBody = req.body.length > 0;
  const isText = TEXT_TYPES.test(String(req.headers['content-type'] ?? ''));
  const event = {
    version: '2.0',
    routeKey: ctx.routeKey,
    rawPath: req.rawPath,
    rawQueryString: req.rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: ctx.accountId,
      apiId: ctx.apiId,
      ...(ctx.authorizer ? { authorizer: { jwt: { claims: ctx.authorizer.claims, scopes: ctx.authorizer.scopes } } } : {}),
      domainName: req.domainName,
      domainPrefix: req.domainName.split('.')[0].split(':')[0],
      http: {
        method: req.method.toUpperCase(),
        path: req.rawPath,
        protocol: req.protocol,
        sourceIp: req.sourceIp,
        userAgent: String(req.headers['user-agent'] ?? ''),
      },
      requestId: ctx.requestId,
      routeKey: ctx.routeKey,
      stage: '$default',
      time: apiGatewayTime(ctx.now),
      timeEpoch: ctx.now.getTime(),
    },
    ...(Object.keys(ctx.pathParameters).length ? { pathParameters: ctx.pathParameters } : {}),
    ...(hasBody ? { body: isText ? req.body.toString('utf8') : req.body.toString('base64') } : {}),
    isBase64Encoded: hasBody && !isText,
  };
  return event as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
}

function eventHeaders(req: LocalRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-for'] = req.sourceIp;
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

function cookieList(header: string | undefined): string[] {
  return (header ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
}

/** Repeated keys arrive comma-joined, as API Gateway sends them in payload 2.0. */
export function queryParameters(rawQueryString: string): Record<string, string> | undefined {
  if (!rawQueryString) return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    params[key] = key in params ? `${params[key]},${value}` : value;
  }
  return Object.keys(params).length ? params : undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "12/Mar/2020:19:03:58 +0000" */
export function apiGatewayTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
