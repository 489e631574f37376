import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod.js';
import { primeAccessRecord } from '../auth/access-record.js';
import { httpEvent, invoke, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { groupHandler, lazyRoute, route } from './group-handler.js';

const KEYS = ['GET /v1/open', 'GET /v1/admin-only'] as const;
const handler = groupHandler(KEYS, {
  'GET /v1/open': route({ run: async ({ auth }) => ({ role: auth.role }) }),
  'GET /v1/admin-only': route({ minRole: 'admin', run: async () => ({ ok: true }) }),
});

describe('route roles', () => {
  beforeAll(() => {
    process.env.PRACTICE_ID = TEST_PRACTICE;
    process.env.TIDEWELL_LOG = 'silent';
  });

  it('lets every practice member through a route that names no role', async () => {
    for (const group of ['employee', 'provider', 'admin']) {
      expect(await invoke(handler, { routeKey: 'GET /v1/open', groups: [group] })).toEqual({ status: 200, body: { role: group } });
    }
  });

  it('refuses no_access everywhere and lower roles where a route names one', async () => {
    expect((await invoke(handler, { routeKey: 'GET /v1/open', groups: ['no_access'] })).status).toBe(403);
    expect(await invoke(handler, { routeKey: 'GET /v1/admin-only', groups: ['provider'] })).toEqual({
      status: 403,
      body: { message: 'You do not have permission to do this.', reason: 'role' },
    });
    expect((await invoke(handler, { routeKey: 'GET /v1/admin-only', groups: ['admin'] })).status).toBe(200);
  });
});

const THING_KEYS = ['GET /v1/things/{thingId}/parts', 'POST /v1/things/{thingId}/parts/{partId}', 'DELETE /v1/things/{thingId}/parts/{partId}'] as const;
const things = groupHandler(THING_KEYS, {
  'GET /v1/things/{thingId}/parts': route({
    params: z.object({ thingId: z.string() }),
    run: async ({ params, event }) => ({ routeKey: event.routeKey, params }),
  }),
  'POST /v1/things/{thingId}/parts/{partId}': route({
    params: z.object({ thingId: z.string(), partId: z.string() }),
    run: async ({ params, event }) => ({ routeKey: event.routeKey, params }),
  }),
  'DELETE /v1/things/{thingId}/parts/{partId}': route({ minRole: 'admin', run: async () => ({ deleted: true }) }),
});

/** A request as API Gateway passes it when a greedy key (`GET /v1/things/{proxy+}`) took it. */
async function viaGreedy(method: string, rawPath: string, groups = ['provider']) {
  primeAccessRecord(TEST_PRACTICE, 'user-1', { user: { permissionGroup: groups[0], userStatus: 'active' }, tokensValidAfter: null });
  const event = httpEvent({ routeKey: `${method} ${rawPath}`, groups });
  event.routeKey = `${method} /v1/things/{proxy+}`;
  event.pathParameters = { proxy: rawPath.replace('/v1/things/', '') };
  const out = (await things(event, {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: out.statusCode, body: out.body ? JSON.parse(out.body) : undefined };
}

describe('greedy route keys', () => {
  beforeAll(() => {
    process.env.PRACTICE_ID = TEST_PRACTICE;
    process.env.TIDEWELL_LOG = 'silent';
  });

  it('runs the route the path and method name, with its own decoded path parameters', async () => {
    expect(await viaGreedy('GET', '/v1/things/t%201/parts')).toEqual({
      status: 200,
      body: { routeKey: 'GET /v1/things/{thingId}/parts', params: { thingId: 't 1' } },
    });
    expect(await viaGreedy('POST', '/v1/things/t1/parts/p2')).toEqual({
      status: 200,
      body: { routeKey: 'POST /v1/things/{thingId}/parts/{partId}', params: { thingId: 't1', partId: 'p2' } },
    });
  });

  it("checks the resolved route's role", async () => {
    expect((await viaGreedy('DELETE', '/v1/things/t1/parts/p2', ['provider'])).status).toBe(403);
    expect(await viaGreedy('DELETE', '/v1/things/t1/parts/p2', ['admin'])).toEqual({ status: 200, body: { deleted: true } });
  });

  it('answers 404 naming the method and path when the group has no such route', async () => {
    expect(await viaGreedy('GET', '/v1/things/t1/other')).toEqual({ status: 404, body: { message: 'No route for GET /v1/things/t1/other' } });
    expect(await viaGreedy('PUT', '/v1/things/t1/parts/p2')).toEqual({ status: 404, body: { message: 'No route for PUT /v1/things/t1/parts/p2' } });
  });
});

describe('lazy routes', () => {
  beforeAll(() => {
    process.env.PRACTICE_ID = TEST_PRACTICE;
    process.env.TIDEWELL_LOG = 'silent';
  });

  it('loads a route on its first request only, then parses and checks roles exactly as for a route defined in place', async () => {
    let loads = 0;
    let failNext = false;
    const lazyKeys = ['POST /v1/lazy', 'GET /v1/lazy-admin'] as const;
    const lazy = groupHandler(lazyKeys, {
      'POST /v1/lazy': lazyRoute(async () => {
        loads++;
        if (failNext) {
          failNext = false;
          throw new Error('chunk missing');
        }
        return route({ body: z.object({ name: z.string().check(z.minLength(1)) }), status: 201, run: async ({ body }) => ({ hello: body.name }) });
      }),
      'GET /v1/lazy-admin': lazyRoute(async () => route({ minRole: 'admin', run: async () => ({ ok: true }) })),
    });
    expect(loads).toBe(0);
    failNext = true;
    expect((await invoke(lazy, { routeKey: 'POST /v1/lazy', groups: ['provider'], body: { name: 'Ana' } })).status).toBe(500);
    expect(await invoke(lazy, { routeKey: 'POST /v1/lazy', groups: ['provider'], body: { name: 'Ana' } })).toEqual({ status: 201, body: { hello: 'Ana' } });
    expect((await invoke(lazy, { routeKey: 'POST /v1/lazy', groups: ['provider'], body: { name: '' } })).status).toBe(400);
    // One failed load, then one that stays for the instance's life.
    expect(loads).toBe(2);
    expect((await invoke(lazy, { routeKey: 'GET /v1/lazy-admin', groups: ['provider'] })).status).toBe(403);
    expect(await invoke(lazy, { routeKey: 'GET /v1/lazy-admin', groups: ['admin'] })).toEqual({ status: 200, body: { ok: true } });
  });
});

describe('schemas built on first use', () => {
  beforeAll(() => {
    process.env.PRACTICE_ID = TEST_PRACTICE;
    process.env.TIDEWELL_LOG = 'silent';
  });

  it("builds a route's schemas on its first request only, once, and answers exactly as with schemas built in place", async () => {
    const built: string[] = [];
    const keys = ['PUT /v1/widgets/{widgetId}', 'GET /v1/widgets'] as const;
    const inPlace = z.object({ name: z.string().check(z.minLength(1, 'Name is required')) });
    const widgets = groupHandler(keys, {
      'PUT /v1/widgets/{widgetId}': route({
        params: () => (built.push('params'), z.object({ widgetId: z.string().check(z.regex(/^w\d+$/, 'widgetId is not valid')) })),
        body: () => (built.push('body'), z.object({ name: z.string().check(z.minLength(1, 'Name is required')) })),
        run: async ({ params, body }) => ({ id: params.widgetId, name: body.name }),
      }),
      'GET /v1/widgets': route({
        query: () => (built.push('query'), z.object({ q: z.optional(z.string()) })),
        run: async ({ query }) => ({ q: query.q ?? null }),
      }),
    });
    const inPlaceHandler = groupHandler(['PUT /v1/widgets/{widgetId}'] as const, {
      'PUT /v1/widgets/{widgetId}': route({
        params: z.object({ widgetId: z.string().check(z.regex(/^w\d+$/, 'widgetId is not valid')) }),
        body: inPlace,
        run: async ({ params, body }) => ({ id: params.widgetId, name: body.name }),
      }),
    });
    expect(built).toEqual([]);

    const put = (h: typeof widgets, widgetId: string, body: unknown) =>
      invoke(h, { routeKey: 'PUT /v1/widgets/{widgetId}', pathParameters: { widgetId }, body });
    expect(await put(widgets, 'w1', { name: 'Gear' })).toEqual({ status: 200, body: { id: 'w1', name: 'Gear' } });
    expect(built).toEqual(['params', 'body']);
    const refused = await put(widgets, 'w2', { name: '' });
    expect(refused.status).toBe(400);
    expect(refused).toEqual(await put(inPlaceHandler, 'w2', { name: '' }));
    expect(await put(widgets, 'x', { name: 'Gear' })).toEqual(await put(inPlaceHandler, 'x', { name: 'Gear' }));
    expect(built).toEqual(['params', 'body']);

    expect(await invoke(widgets, { routeKey: 'GET /v1/widgets', query: { q: 'ge' } })).toEqual({ status: 200, body: { q: 'ge' } });
    expect(built).toEqual(['params', 'body', 'query']);
  });
});
