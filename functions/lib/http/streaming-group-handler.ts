import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { log } from '../log.js';
import type { HttpEvent } from './group-handler.js';
import { endStream, httpResponseStream, streamifyResponse, StreamedResult, type ResponseStream, type StreamingHandler } from './response-stream.js';
import { compileRoutes, matchRoute } from './route-matcher.js';

type GroupApi = (event: HttpEvent, context: Context) => Promise<APIGatewayProxyResultV2 | StreamedResult>;

/** A function URL's event: payload 2.0 without an API Gateway route or authorizer. */
export function isFunctionUrlEvent(event: HttpEvent): boolean {
  return event.routeKey === '$default' && !event.requestContext?.authorizer;
}

const json = (statusCode: number, message: string) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });

/**
 * A group whose routes answer through API Gateway (buffered) and whose `urlRoutes` also answer
 * through the function's URL, streamed. A function URL has no JWT authorizer, so the token is
 * verified here exactly as the API's authorizer does, then the request runs through the same
 * group handler (access check, refusal audit, schemas, error mapping) as through the API.
 */
export function streamingGroupHandler(api: GroupApi, urlRoutes: readonly string[]): StreamingHandler<HttpEvent> {
  const routes = compileRoutes([{ name: 'url', routes: urlRoutes }]);
  return streamifyResponse<HttpEvent>(async (event, responseStream, context) => {
    if (!isFunctionUrlEvent(event)) {
      const result = await api(event, context);
      await endStream(responseStream, JSON.stringify(result instanceof StreamedResult ? await result.buffered() : result));
      return;
    }
    const method = event.requestContext?.http?.method ?? '';
    const match = matchRoute(routes, method, event.rawPath ?? '');
    if (!match) return writeWhole(responseStream, json(404, 'Not Found'));
    // Only URL requests verify tokens here; API Gateway's authorizer did it for the rest.
    const { tokenVerifierFromEnv } = await import('../auth/verify-token.js');
    const claims = await tokenVerifierFromEnv()(event.headers?.authorization);
    if (!claims) return writeWhole(responseStream, json(401, 'Unauthorized'));
    const routed: HttpEvent = {
      ...event,
      routeKey: match.route.routeKey,
      pathParameters: match.pathParameters,
      requestContext: { ...event.requestContext, routeKey: match.route.routeKey, authorizer: { jwt: { claims, scopes: [] } } } as HttpEvent['requestContext'],
    };
    const result = await api(routed, context);
    if (!(result instanceof StreamedResult)) return writeWhole(responseStream, result);
    const out = httpResponseStream(responseStream, { statusCode: result.statusCode, headers: result.headers }) as ResponseStream;
    try {
      for await (const chunk of result.chunks) out.write(chunk);
    } catch (error) {
      log.error('Streamed response failed', { routeKey: routed.routeKey, error: (error as Error)?.name });
    }
    await endStream(out);
  });
}

async function writeWhole(stream: ResponseStream, result: APIGatewayProxyResultV2): Promise<void> {
  const r = typeof result === 'string' ? { statusCode: 200, headers: { 'content-type': 'application/json' }, body: result } : result;
  const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const out = httpResponseStream(stream, { statusCode: r.statusCode ?? 200, headers, ...(r.cookies ? { cookies: r.cookies } : {}) }) as ResponseStream;
  await endStream(out, r.body ?? '');
}
