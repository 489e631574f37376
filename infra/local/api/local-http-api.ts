import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { GroupDefinition } from '../../../functions/groups.js';
import { deployedRoutes, SIGNED_GROUP_SUFFIX } from '../../../functions/lib/http/deployed-routes.js';
import { runtimeError, runtimeLog } from '../runtime-log.js';
import { isStreamingHandler, type StreamingHandler } from '../../../functions/lib/http/response-stream.js';
import { buildHttpApiEvent, type LocalRequest } from './http-api-event.js';
import { bufferedResponseStream, lambdaResponseStream } from './lambda-response-stream.js';
import type { AuthorizerResult } from './jwt-authorizer.js';
import { gatewayError, toHttpResult, type HttpResult } from './lambda-result.js';
import { compileRoutes, matchRoute } from '../../../functions/lib/http/route-matcher.js';

/** API Gateway's payload limit. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** API Gateway gives up on an integration after 30 s, whatever the Lambda's own timeout. */
const MAX_INTEGRATION_SECONDS = 30;

type LambdaHandler = ((event: unknown, context: Context) => Promise<unknown>) | StreamingHandler;

export interface LocalHttpApiOptions {
  groups: readonly GroupDefinition[];
  repoRoot: string;
  authorize: (authorization: string | undefined) => Promise<AuthorizerResult | null>;
  accountId: string;
  apiId: string;
  region: string;
}

export interface LocalHttpApi {
  /** `path` is the request path with the /api prefix removed. */
  handle(req: IncomingMessage, res: ServerResponse, path: string, rawQueryString: string): void;
  /**
   * A group's function URL (RESPONSE_STREAM): no route table, no authorizer (the handler checks the
   * token), the body forwarded as the handler writes it. `path` is below the URL's root.
   */
  handleFunctionUrl(groupName: string, req: IncomingMessage, res: ServerResponse, path: string, rawQueryString: string): void;
}

/** Invoke of a handler as Lambda does it: a streaming handler's written bytes are its payload. */
async function invoke(handler: LambdaHandler, event: unknown, context: Context): Promise<unknown> {
  if (!isStreamingHandler(handler)) return (handler as (e: unknown, c: Context) => Promise<unknown>)(event, context);
  const { stream, payload } = bufferedResponseStream();
  await handler(event, stream, context);
  if (!stream.writableEnded) stream.end();
  const text = (await payload).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The HTTP API: the route keys the stack registers for functions/groups.ts, the JWT authorizer, then the group's
 * handler module invoked with a payload 2.0 event, one module instance per group like a warm Lambda.
 */
export function createLocalHttpApi(options: LocalHttpApiOptions): LocalHttpApi {
  // The keys the stack registers, greedy ones included, so a local request reaches the handler as in AWS.
  const routes = compileRoutes(
    deployedRoutes(options.groups).map((d) => ({ name: d.signed ? `${d.group}${SIGNED_GROUP_SUFFIX}` : d.group, routes: d.routes })),
  );
  const handlers = new Map<string, Promise<LambdaHandler>>();

  function handlerOf(group: GroupDefinition): Promise<LambdaHandler> {
    let loaded = handlers.get(group.name);
    if (!loaded) {
      loaded = import(pathToFileURL(join(options.repoRoot, group.entry)).href).then((mod: { handler?: LambdaHandler }) => {
        if (typeof mod.handler !== 'function') throw new Error(`${group.entry} does not export a handler`);
        return mod.handler;
      });
      loaded.catch(() => handlers.delete(group.name));
      handlers.set(group.name, loaded);
    }
    return loaded;
  }

  async function respond(req: IncomingMessage, path: string, rawQueryString: string, body: Buffer | null): Promise<HttpResult> {
    const match = matchRoute(routes, req.method ?? 'GET', path);
    if (!match) return gatewayError(404, 'Not Found');
    if (body === null) return gatewayError(413, 'Request Entity Too Large');
    // Signed routes have no authorizer, as in the stack: the handler checks the partner's signature.
    const signed = match.route.group.endsWith(SIGNED_GROUP_SUFFIX);
    const authorizer = signed ? undefined : await options.authorize(req.headers.authorization);
    if (!signed && !authorizer) return gatewayError(401, 'Unauthorized');

    const groupName = signed ? match.route.group.slice(0, -SIGNED_GROUP_SUFFIX.length) : match.route.group;
    const group = options.groups.find((g) => g.name === groupName)!;
    const requestId = randomUUID();
    const event = buildHttpApiEvent(localRequest(req, path, rawQueryString, body), {
      routeKey: match.route.routeKey,
      pathParameters: match.pathParameters,
      authorizer: authorizer ?? undefined,
      requestId,
      now: new Date(),
      accountId: options.accountId,
      apiId: options.apiId,
    });
    const timeoutMs = Math.min(group.timeoutSeconds ?? MAX_INTEGRATION_SECONDS, MAX_INTEGRATION_SECONDS) * 1000;
    const context = lambdaContext(group, requestId, timeoutMs, options);
    try {
      const handler = await handlerOf(group);
      const result = await withTimeout(invoke(handler, event, context), timeoutMs);
      return result === TIMED_OUT ? gatewayError(503, 'Service Unavailable') : toHttpResult(result);
    } catch (error) {
      runtimeError(`Lambda ${group.name} failed on ${match.route.routeKey}`, error);
      return gatewayError(500, 'Internal Server Error');
    }
  }

  async function streamFunctionUrl(groupName: string, req: IncomingMessage, res: ServerResponse, path: string, rawQueryString: string): Promise<void> {
    const group = options.groups.find((g) => g.name === groupName);
    const body = await readLimited(req, MAX_BODY_BYTES);
    if (!group) return writeResult(res, gatewayError(404, 'Not Found'));
    if (body === null) return writeResult(res, gatewayError(413, 'Request Entity Too Large'));
    const handler = await handlerOf(group);
    if (!isStreamingHandler(handler)) return writeResult(res, gatewayError(502, 'The function does not stream its response'));
    const requestId = randomUUID();
    const event = buildHttpApiEvent(localRequest(req, path, rawQueryString, body), {
      routeKey: '$default',
      pathParameters: {},
      authorizer: null,
      requestId,
      now: new Date(),
      accountId: options.accountId,
      apiId: `url-${group.name}`,
    });
    const timeoutMs = (group.timeoutSeconds ?? MAX_INTEGRATION_SECONDS) * 1000;
    const stream = lambdaResponseStream({
      start: (statusCode, headers, cookies) => res.writeHead(statusCode, { ...headers, ...(cookies.length ? { 'set-cookie': cookies } : {}) }),
      write: (chunk) => void res.write(chunk),
      end: () => void res.end(),
    });
    try {
      const outcome = await withTimeout(handler(event, stream, lambdaContext(group, requestId, timeoutMs, options)), timeoutMs);
      if (outcome === TIMED_OUT) runtimeError(`Lambda ${group.name} timed out on its function URL`, new Error('timeout'));
    } catch (error) {
      runtimeError(`Lambda ${group.name} failed on its function URL`, error);
      if (!res.headersSent) writeResult(res, gatewayError(502, 'Internal Server Error'));
    } finally {
      if (!stream.writableEnded) stream.end();
    }
  }

  return {
    handleFunctionUrl(groupName, req, res, path, rawQueryString) {
      const started = Date.now();
      streamFunctionUrl(groupName, req, res, path, rawQueryString)
        .catch((error: unknown) => {
          runtimeError('Local function URL failed', error);
          if (!res.headersSent) writeResult(res, gatewayError(500, 'Internal Server Error'));
        })
        .finally(() => runtimeLog(`${req.method} ${groupName} function URL ${path} ${res.statusCode} ${Date.now() - started}ms`));
    },
    handle(req, res, path, rawQueryString) {
      const started = Date.now();
      readLimited(req, MAX_BODY_BYTES)
        .then((body) => respond(req, path, rawQueryString, body))
        .catch((error: unknown) => {
          runtimeError('Local API failed', error);
          return gatewayError(500, 'Internal Server Error');
        })
        .then((result) => {
          writeResult(res, result);
          runtimeLog(`${req.method} /api${path} ${result.statusCode} ${Date.now() - started}ms`);
        })
        // A response the client has already closed must not take the runtime down.
        .catch((error: unknown) => runtimeError('Local API response failed', error));
    },
  };
}

const TIMED_OUT = Symbol('timed out');

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves null when the body is over the limit (the rest is drained, not kept). */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeResult(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = { ...result.headers, 'content-length': String(result.body.length) };
  if (result.cookies.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode, headers);
  res.end(result.body);
}

function lambdaContext(group: GroupDefinition, requestId: string, timeoutMs: number, options: LocalHttpApiOptions): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = `tidewell-${group.name}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region}:${options.accountId}:function:${functionName}`,
    memoryLimitInMB: String(group.memoryMb ?? 1024),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${requestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** What API Gateway reads off an HTTP request, for the API's routes and a function URL alike. */
function localRequest(req: IncomingMessage, path: string, rawQueryString: string, body: Buffer): LocalRequest {
  return {
    method: req.method ?? 'GET',
    rawPath: path,
    rawQueryString,
    headers: req.headers,
    body,
    sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
    domainName: req.headers.host ?? 'localhost',
    protocol: `HTTP/${req.httpVersion}`,
  };
}
