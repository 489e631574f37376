import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import * as z from '../../../shared/zod.js';
import { writeRefusalAudit } from '../audit/audit-repository.js';
import { AccessRefusedError, type TokenIdentity } from '../auth/access-rule.js';
import { requireRole, tokenIdentity, type AuthContext, type Role } from '../auth/auth-context.js';
import { authorizeIdentity } from '../auth/authorize.js';
import { mfaAsked } from '../auth/mfa-rule.js';
import { DependencyError, HttpError, NotFoundError, ValidationError } from '../errors.js';
import { log } from '../log.js';
import type { Permission } from '../../../shared/permissions/permissions.js';
import { requirePermission } from './permissions.js';
import {
  INDEX_WRITTEN_HEADER,
  ITEMS_READ_HEADER,
  ITEMS_WRITTEN_HEADER,
  ROUND_TRIPS_HEADER,
  TABLE_MS_HEADER,
  indexWriteUnits,
  itemsRead,
  roundTrips,
  tableWaitMs,
  withReadMeter,
  writeUnits,
} from '../table/read-meter.js';
import { originOf, withRequestOrigin } from './request-context.js';
import { StreamedResult } from './response-stream.js';
import { compileRoutes, matchRoute } from './route-matcher.js';
import { parseOrThrow } from './zod-errors.js';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

/** Any signed-in member of the practice: what a route without its own minRole allows. */
export const DEFAULT_MIN_ROLE: Role = 'employee';

export interface RequestContext<B, Q, P> {
  auth: AuthContext;
  body: B;
  query: Q;
  params: P;
  event: HttpEvent;
}

/**
 * A route's schema, or a function that builds it. A function is called on the route's first request
 * and its schema kept: a Lambda's cold start then builds none of the schemas its routes compose
 * (each costs about 10 µs of module init) and a warm instance builds each once.
 */
export type SchemaRef<T> = z.ZodMiniType<T> | (() => z.ZodMiniType<T>);

export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  body?: SchemaRef<B>;
  query?: SchemaRef<Q>;
  params?: SchemaRef<P>;
  /**
   * Lowest role allowed, written only where a route is restricted beyond DEFAULT_MIN_ROLE; every
   * route already refuses no_access and other practices.
   */
  minRole?: Role;
  /** A rule of the permissions table (shared/permissions) the caller's role must pass. */
  permission?: Permission;
  status?: number;
  run: (req: RequestContext<B, Q, P>) => Promise<unknown>;
}

/** Identity helper so each route's run() is typed from its own schemas. */
export function route<B = undefined, Q = undefined, P = undefined>(spec: RouteSpec<B, Q, P>): RouteSpec<B, Q, P> {
  return spec;
}

export class HttpResponse {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResultV2 {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: body === undefined ? '' : JSON.stringify(body) };
}

interface Internal {
  /** The token's holder, known before the access decision so a refusal can be audited. */
  caller?: TokenIdentity;
  auth?: AuthContext;
  jsonBody?: unknown;
}
type Ctx = Context & { tidewell?: Internal };

/** A path's patient id when it is one (bounded, key-safe): a refusal then shows in that patient's history. */
const PATIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Every 401/403 a signed-in caller gets is written to the practice's audit trail; a failed write never hides the refusal. */
async function auditRefusal(event: HttpEvent, internal: Internal | undefined, error: HttpError): Promise<void> {
  const caller = internal?.caller;
  const practiceId = process.env.PRACTICE_ID;
  if (!caller || !practiceId) return;
  const patientId = event.pathParameters?.patientId;
  try {
    await writeRefusalAudit(
      practiceId,
      { userId: caller.sub, email: caller.email, role: internal?.auth?.role, superUser: caller.superUser, tokenPracticeId: caller.tokenPracticeId },
      {
        route: event.routeKey,
        reason: (error.details?.reason as string | undefined) ?? 'forbidden',
        status: error.statusCode,
        sourceIp: event.requestContext?.http?.sourceIp,
        ...(patientId && PATIENT_ID.test(patientId) ? { patientId } : {}),
      },
    );
  } catch (auditError) {
    log.error('Refusal audit failed', { routeKey: event.routeKey, error: (auditError as Error)?.name });
  }
}

/** Maps typed errors to their status; anything else becomes a generic 500, logged without the request. */
export function httpErrorMapper(): MiddlewareObj<HttpEvent, APIGatewayProxyResultV2> {
  return {
    onError: async (request) => {
      const error = request.error as Error;
      if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 403)) {
        await auditRefusal(request.event, (request.context as Ctx).tidewell, error);
      }
      if (error instanceof HttpError && error.statusCode < 500) {
        request.response = json(error.statusCode, { message: error.message, ...(error.details ?? {}) });
        return;
      }
      if (error instanceof DependencyError) {
        log.warn('Dependency failed', { routeKey: request.event?.routeKey, code: error.code, status: error.statusCode });
        request.response = json(error.statusCode, { message: error.message, ...(error.details ?? {}) });
        return;
      }
      log.error('Unhandled error', { routeKey: request.event?.routeKey, error: error?.name, stack: error?.stack });
      request.response = json(500, { message: 'Internal server error' });
    },
  };
}

/**
 * API Gateway registers greedy keys (deployed-routes.ts); the group's own route table turns one back
 * into the concrete route key and its path parameters, so refusal audits, roles and schemas see the
 * route exactly as if it had been registered on its own.
 */
export function greedyRouteResolver(routeKeys: readonly string[]): MiddlewareObj<HttpEvent, APIGatewayProxyResultV2> {
  const routes = compileRoutes([{ name: 'own', routes: routeKeys }]);
  return {
    before: async (request) => {
      const event = request.event;
      if (!event.routeKey?.includes('{proxy+}')) return;
      const method = event.requestContext?.http?.method ?? '';
      const match = matchRoute(routes, method, event.rawPath ?? '');
      if (!match) throw new NotFoundError(`No route for ${method} ${event.rawPath}`);
      event.routeKey = match.route.routeKey;
      event.pathParameters = match.pathParameters;
    },
  };
}

/**
 * The practice comes from the stack and the caller from the authorizer's claims, never from the
 * request; the role and whether they may act at all come from their user record (cached at most 30 s per instance).
 */
export function authContextMiddleware(): MiddlewareObj<HttpEvent, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const claims = request.event.requestContext?.authorizer?.jwt?.claims;
      const ctx = request.context as Ctx;
      const caller = tokenIdentity(claims);
      ctx.tidewell = { ...(ctx.tidewell ?? {}), caller };
      const practiceId = process.env.PRACTICE_ID;
      if (!practiceId) throw new Error('PRACTICE_ID is not set');
      ctx.tidewell.auth = await authorizeIdentity(caller, practiceId);
      // The pool lookup loads with the first caller the practice's rule asks about (cold-start budget).
      if (mfaAsked(ctx.tidewell.auth.role)) {
        const { mfaSatisfied, mfaRequiredMessage } = await import('../auth/mfa-enrolment.js');
        if (!(await mfaSatisfied(ctx.tidewell.auth))) throw new AccessRefusedError(403, mfaRequiredMessage(), 'mfa_required');
      }
    },
  };
}

export function jsonBodyParser(): MiddlewareObj<HttpEvent, APIGatewayProxyResultV2> {
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') return;
      const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      const ctx = request.context as Ctx;
      try {
        ctx.tidewell = { ...(ctx.tidewell ?? {}), jsonBody: JSON.parse(text) };
      } catch {
        throw new ValidationError('Malformed JSON in request body');
      }
    },
  };
}

const builtSchemas = new WeakMap<() => z.ZodMiniType<unknown>, z.ZodMiniType<unknown>>();

function schemaOf<T>(ref: SchemaRef<T> | undefined): z.ZodMiniType<T> | undefined {
  if (typeof ref !== 'function') return ref;
  let schema = builtSchemas.get(ref);
  if (!schema) builtSchemas.set(ref, (schema = ref()));
  return schema as z.ZodMiniType<T>;
}

function parseWith<T>(ref: SchemaRef<T> | undefined, value: unknown, where: string): T {
  const schema = schemaOf(ref);
  if (!schema) return undefined as T;
  return parseOrThrow(schema, value ?? (where === 'body' ? undefined : {}), where);
}

/** Longest path parameter any route takes; each route's own schema narrows it further. */
const MAX_PATH_PARAM = 200;

/**
 * Path parameters become key parts, so every one is bounded and free of the key separator '#'
 * before any route sees it, whether or not the route declares a params schema.
 */
export function assertSafePathParams(params: Record<string, string | undefined> | undefined): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    if (value.length > MAX_PATH_PARAM || value.includes('#') || [...value].some((c) => c.charCodeAt(0) < 32)) {
      throw new ValidationError(`${name} is not valid`, { [name]: 'is not valid' });
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRouteSpec = RouteSpec<any, any, any>;

/**
 * A route whose schemas and use case load on its first request: a group's rarer routes (template
 * management beside note writing) stay out of the module a cold start loads. Everything else
 * (roles, parsing, audit) is the same as for a route defined in place.
 */
export interface LazyRoute {
  readonly load: () => Promise<AnyRouteSpec>;
}

export function lazyRoute(load: () => Promise<AnyRouteSpec>): LazyRoute {
  let loaded: Promise<AnyRouteSpec> | undefined;
  return {
    load: () => {
      // A failed load (say, a chunk missing from a broken deploy) is tried again on the next request.
      loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return loaded;
    },
  };
}

/**
 * A feature's routes that load together with the first request to any of them: one chunk per
 * feature (the scribe's routes beside the Copilot's), so a cold start carries only the common path.
 */
export function lazyRoutes<K extends string>(keys: readonly K[], loadTable: () => Promise<{ readonly [R in K]: AnyRouteSpec }>): Record<K, LazyRoute> {
  return Object.fromEntries(keys.map((key) => [key, lazyRoute(() => loadTable().then((table) => table[key]))])) as Record<K, LazyRoute>;
}

function isLazy(entry: AnyRouteSpec | LazyRoute): entry is LazyRoute {
  return typeof (entry as LazyRoute).load === 'function';
}

export type RouteTable<K extends string> = { readonly [R in K]: AnyRouteSpec | LazyRoute };

/**
 * One Lambda per endpoint group: dispatches on API Gateway's routeKey ("GET /v1/patients/{id}")
 * to the route's spec, after the shared middleware stack.
 */
export function groupHandler<K extends string>(routeKeys: readonly K[], table: RouteTable<K>) {
  const handler = middy<HttpEvent, APIGatewayProxyResultV2>()
    .use(httpErrorMapper())
    .use(greedyRouteResolver(routeKeys))
    .use(authContextMiddleware())
    .use(jsonBodyParser())
    .handler(async (event, context) => {
      const key = event.routeKey as K;
      const entry = routeKeys.includes(key) ? table[key] : undefined;
      const spec = entry && isLazy(entry) ? await entry.load() : (entry as AnyRouteSpec | undefined);
      if (!spec) throw new NotFoundError(`No route for ${event.requestContext?.http?.method} ${event.rawPath}`);
      const internal = (context as Ctx).tidewell ?? {};
      const auth = internal.auth!;
      requireRole(auth, spec.minRole ?? DEFAULT_MIN_ROLE);
      if (spec.permission) requirePermission(auth, spec.permission);
      assertSafePathParams(event.pathParameters);
      const req = {
        auth,
        event,
        params: parseWith(spec.params, event.pathParameters ?? {}, 'path'),
        query: parseWith(spec.query, event.queryStringParameters ?? {}, 'query'),
        body: spec.body ? parseWith(spec.body, internal.jsonBody, 'body') : undefined,
      };
      const result = await spec.run(req);
      if (result instanceof HttpResponse) return json(result.statusCode, result.body, result.headers);
      // Written by the group's streaming entry point (streaming-group-handler.ts) as it is produced.
      if (result instanceof StreamedResult) return result as unknown as APIGatewayProxyResultV2;
      return json(spec.status ?? 200, result);
    });
  // The whole invocation (middleware included, so a refusal's audit entry too) knows where the
  // request came from, for the audit trail.
  // Each request's reads and writes are counted; the local runtime (TIDEWELL_READ_METER) answers with the counts.
  return (event: HttpEvent, context: Context): Promise<APIGatewayProxyResultV2> =>
    withRequestOrigin(originOf(event), () =>
      withReadMeter(async () => {
        const result = await handler(event, context);
        if (process.env.TIDEWELL_READ_METER !== '1' || !result || typeof result !== 'object' || result instanceof StreamedResult) return result;
        return {
          ...result,
          headers: {
            ...result.headers,
            [ITEMS_READ_HEADER]: String(itemsRead()),
            [ITEMS_WRITTEN_HEADER]: String(writeUnits()),
            [INDEX_WRITTEN_HEADER]: String(indexWriteUnits()),
            [ROUND_TRIPS_HEADER]: String(roundTrips()),
            [TABLE_MS_HEADER]: tableWaitMs().toFixed(1),
          },
        };
      }),
    );
}
