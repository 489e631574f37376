import { AsyncLocalStorage } from 'node:async_hooks';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Where a request came from, as the audit trail records it. */
export interface RequestOrigin {
  routeKey: string;
  sourceIp?: string;
  userAgent?: string;
}

const storage = new AsyncLocalStorage<RequestOrigin>();

const USER_AGENT_MAX = 300;

export function originOf(event: Pick<APIGatewayProxyEventV2, 'routeKey' | 'requestContext'>): RequestOrigin {
  const http = event.requestContext?.http;
  return {
    // Read when used: a greedy route's key is resolved to the concrete route after this is taken.
    get routeKey() {
      return event.routeKey;
    },
    ...(http?.sourceIp ? { sourceIp: http.sourceIp } : {}),
    ...(http?.userAgent ? { userAgent: http.userAgent.slice(0, USER_AGENT_MAX) } : {}),
  };
}

/** Runs a route with its origin available to whatever it calls (the audit writer), without threading it through. */
export function withRequestOrigin<T>(origin: RequestOrigin, work: () => Promise<T>): Promise<T> {
  return storage.run(origin, work);
}

export function currentRequestOrigin(): RequestOrigin | undefined {
  return storage.getStore();
}
