import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { execute, getNamedType, GraphQLInputObjectType, Kind, parse, validate, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { LOCAL_PUBLISHER_SECRET_HEADER } from '../../../functions/lib/adapters/notification-publisher.js';
import { log } from '../../../functions/lib/log.js';
import { loadAppSyncSchema, subscriptionTriggers } from './appsync-schema.js';
import { parseSubscriptionRequest, type SubscriptionRequest } from './subscription-request.js';

export type Claims = Record<string, unknown>;
export type PublishField = 'createNotification' | 'updateNotification';

export interface AttachRealtimeOptions {
  /** GraphQL path; the websocket lives at `${path}/realtime` as Amplify derives it. Default '/graphql'. */
  path?: string;
  /** Verifies a Cognito token (id or access) and returns its claims, or throws. */
  verifyToken: (token: string) => Promise<Claims>;
  /**
   * The API's access rule for a verified caller (their user record: removed, no_access, signed
   * out); throws to refuse. Applied on connect, on subscribe and again before every delivery, so
   * a user removed while subscribed receives nothing more. Without it only the token's no_access
   * group refuses.
   */
  authorize?: (claims: Claims, field: string, delivery: boolean) => Promise<void>;
  /** Shared secret the local notification publisher sends; generated when absent. */
  publisherSecret?: string;
  keepAliveMs?: number;
  connectionTimeoutMs?: number;
  schemaPath?: string;
}

export interface RealtimeServer {
  publish(field: PublishField, notification: object): Promise<number>;
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
  readonly publisherSecret: string;
}

interface Subscription {
  request: SubscriptionRequest;
  claims: Claims;
}

interface Connection {
  socket: WebSocket;
  auth: Promise<Claims | null>;
  acked: boolean;
  subscriptions: Map<string, Subscription>;
  keepAlive?: NodeJS.Timeout;
}

type AppSyncError = { errorType: string; message: string; errorCode?: number };

const UNAUTHORIZED: AppSyncError = { errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.', errorCode: 401 };

/** The auth header Amplify sends: `header-<base64url JSON>` subprotocol, or the `header` query parameter. */
export function authHeaderFromUpgrade(req: IncomingMessage): Record<string, unknown> | null {
  const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const fromProtocol = protocols.find((p) => p.startsWith('header-'))?.slice('header-'.length);
  const fromQuery = new URL(req.url ?? '/', 'http://local').searchParams.get('header');
  const encoded = fromProtocol ?? fromQuery;
  if (!encoded) return null;
  try {
    const decoded = JSON.parse(Buffer.from(encoded, fromProtocol ? 'base64url' : 'base64').toString('utf8'));
    return decoded && typeof decoded === 'object' ? (decoded as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function bearer(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  return value.replace(/^Bearer\s+/i, '').trim();
}

function isNoAccess(claims: Claims): boolean {
  const groups = claims['cognito:groups'];
  return Array.isArray(groups) ? groups.includes('no_access') : String(groups ?? '').includes('no_access');
}

function secretMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * An AppSync-realtime-compatible endpoint for the local runtime. It speaks the protocol Amplify's
 * AWSAppSyncRealTimeProvider speaks, validates documents against the deployed schema file, and,
 * like AppSync, delivers an event only to subscriptions whose arguments equal the mutation
 * result's fields (here: practiceId). Unlike AppSync it also refuses a subscription for a
 * practice other than the token's, which matters locally where one pool holds test practices.
 */
export function attachRealtime(server: Server, opts: AttachRealtimeOptions): RealtimeServer {
  const path = opts.path ?? '/graphql';
  const realtimePath = `${path}/realtime`;
  const keepAliveMs = opts.keepAliveMs ?? 60_000;
  const connectionTimeoutMs = opts.connectionTimeoutMs ?? 300_000;
  const publisherSecret = opts.publisherSecret ?? randomBytes(24).toString('base64url');
  const schema = loadAppSyncSchema(opts.schemaPath);
  const triggers = subscriptionTriggers(schema);
  const connections = new Set<Connection>();

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('graphql-ws') ? 'graphql-ws' : false),
  });

  async function allowed(claims: Claims, field: string, delivery = false): Promise<boolean> {
    if (!opts.authorize) return !isNoAccess(claims);
    try {
      await opts.authorize(claims, field, delivery);
      return true;
    } catch {
      return false;
    }
  }

  async function authenticate(token: string | null): Promise<Claims | null> {
    if (!token) return null;
    let claims: Claims;
    try {
      claims = await opts.verifyToken(token);
    } catch {
      return null;
    }
    return (await allowed(claims, 'connection')) ? claims : null;
  }

  function send(connection: Connection, message: object): void {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  }

  function sendError(connection: Connection, id: string | undefined, error: AppSyncError): void {
    send(connection, { type: 'error', id, payload: { errors: [error] } });
  }

  async function onStart(connection: Connection, id: string | undefined, payload: Record<string, unknown> | undefined) {
    if (!id) return sendError(connection, undefined, { errorType: 'BadRequestException', message: 'Missing subscription id' });
    if (connection.subscriptions.has(id)) {
      return sendError(connection, id, { errorType: 'DuplicatedOperationError', message: 'Duplicated operation with id ' + id });
    }
    let data: { query?: unknown; variables?: unknown } = {};
    try {
      data = typeof payload?.data === 'string' ? JSON.parse(payload.data) : {};
    } catch {
      return sendError(connection, id, { errorType: 'BadRequestException', message: 'payload.data is not valid JSON' });
    }
    const authorization = (payload?.extensions as { authorization?: Record<string, unknown> } | undefined)?.authorization;
    const claims = authorization?.Authorization ? await authenticate(bearer(authorization.Authorization)) : await connection.auth;
    if (!claims) return sendError(connection, id, UNAUTHORIZED);

    const parsed = parseSubscriptionRequest(schema, data.query, data.variables);
    if (!parsed.ok) return sendError(connection, id, { errorType: parsed.errorType, message: parsed.message });
    const { request } = parsed;
    if (request.args.practiceId !== claims['custom:practiceId']) {
      return sendError(connection, id, {
        errorType: 'Unauthorized',
        message: `Not Authorized to access ${request.field} on type Subscription`,
      });
    }
    if (!(await allowed(claims, request.field))) return sendError(connection, id, UNAUTHORIZED);
    connection.subscriptions.set(id, { request, claims });
    send(connection, { type: 'start_ack', id });
  }

  async function onMessage(connection: Connection, raw: string) {
    let message: { type?: string; id?: string; payload?: Record<string, unknown> };
    try {
      message = JSON.parse(raw);
    } catch {
      return sendError(connection, undefined, { errorType: 'BadRequestException', message: 'Message is not valid JSON' });
    }
    if (message.type === 'connection_init') {
      const claims = await connection.auth;
      if (!claims) {
        send(connection, { type: 'connection_error', payload: { errors: [UNAUTHORIZED] } });
        connection.socket.close(1000);
        return;
      }
      connection.acked = true;
      send(connection, { type: 'connection_ack', payload: { connectionTimeoutMs } });
      send(connection, { type: 'ka' });
      connection.keepAlive = setInterval(() => send(connection, { type: 'ka' }), keepAliveMs);
      return;
    }
    if (!connection.acked) {
      send(connection, { type: 'connection_error', payload: { errors: [UNAUTHORIZED] } });
      connection.socket.close(1000);
      return;
    }
    if (message.type === 'start') return onStart(connection, message.id, message.payload);
    if (message.type === 'stop') {
      if (message.id) connection.subscriptions.delete(message.id);
      return send(connection, { type: 'complete', id: message.id });
    }
    sendError(connection, message.id, { errorType: 'UnsupportedOperation', message: `Unknown message type ${message.type}` });
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (new URL(req.url ?? '/', 'http://local').pathname !== realtimePath) return;
    const header = authHeaderFromUpgrade(req);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = {
        socket: ws,
        auth: authenticate(bearer(header?.Authorization)),
        acked: false,
        subscriptions: new Map(),
      };
      connections.add(connection);
      ws.on('message', (data) => {
        onMessage(connection, data.toString()).catch((error) => log.error('realtime message failed', { error: String(error) }));
      });
      ws.on('close', () => {
        clearInterval(connection.keepAlive);
        connections.delete(connection);
      });
    });
  }
  server.on('upgrade', onUpgrade);

  /** Deliver one mutation result to the matching subscriptions; returns how many received it. */
  async function fanOut(mutationField: string, result: Record<string, unknown>): Promise<number> {
    const fields = triggers.get(mutationField) ?? [];
    let delivered = 0;
    for (const connection of connections) {
      for (const [id, { request, claims }] of connection.subscriptions) {
        if (!fields.includes(request.field)) continue;
        const matches = Object.entries(request.args).every(([arg, value]) => value == null || result[arg] === value);
        if (!matches) continue;
        // Access is re-checked per delivery (the record is cached at most 30 s): a removal ends the feed.
        if (!(await allowed(claims, request.field, true))) {
          connection.subscriptions.delete(id);
          sendError(connection, id, UNAUTHORIZED);
          continue;
        }
        const shaped = await execute({
          schema,
          document: request.document,
          rootValue: { [request.field]: result },
          variableValues: request.variables,
        });
        send(connection, { type: 'data', id, payload: shaped });
        delivered += 1;
      }
    }
    return delivered;
  }

  async function runMutation(query: string, variables: Record<string, unknown>): Promise<ExecutionResult> {
    const document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) return { errors };
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (operation?.operation !== 'mutation') return { errors: [{ message: 'Only mutations are served here' } as never] };
    // AppSync's NONE data source: the resolver returns its input, so the mutation is a fan-out.
    const passThrough = ({ input }: { input: unknown }) => input;
    const result = await execute({
      schema,
      document,
      variableValues: variables,
      rootValue: Object.fromEntries([...triggers.keys()].map((field) => [field, passThrough])),
    });
    for (const [field, value] of Object.entries(result.data ?? {})) {
      if (value && typeof value === 'object') await fanOut(field, value as Record<string, unknown>);
    }
    return result;
  }

  const mutationFieldsSelection = (() => {
    const type = schema.getType('Notification');
    return type && 'getFields' in type ? Object.keys(type.getFields()).join(' ') : 'practiceId';
  })();

  /** AWSJSON inputs travel as strings, as they do to AppSync. */
  function toInput(mutationField: string, notification: object): Record<string, unknown> {
    const fields = schema.getMutationType()?.getFields();
    const arg = fields?.[mutationField]?.args.find((a) => a.name === 'input');
    const inputType = arg ? getNamedType(arg.type) : undefined;
    const input: Record<string, unknown> = { ...(notification as Record<string, unknown>) };
    if (inputType instanceof GraphQLInputObjectType) {
      for (const [name, field] of Object.entries(inputType.getFields())) {
        if (getNamedType(field.type).name === 'AWSJSON' && input[name] != null && typeof input[name] !== 'string') {
          input[name] = JSON.stringify(input[name]);
        }
      }
    }
    return input;
  }

  return {
    publisherSecret,

    async publish(field, notification) {
      const document = parse(`mutation Publish($input: NotificationInput!) { ${field}(input: $input) { ${mutationFieldsSelection} } }`);
      const errors = validate(schema, document);
      if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
      const result = await execute({
        schema,
        document,
        variableValues: { input: toInput(field, notification) },
        rootValue: { [field]: ({ input }: { input: unknown }) => input },
      });
      if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
      return fanOut(field, (result.data as Record<string, Record<string, unknown>>)[field]);
    },

    async handleHttp(req, res) {
      if (new URL(req.url ?? '/', 'http://local').pathname !== path || req.method !== 'POST') return false;
      if (!secretMatches(publisherSecret, req.headers[LOCAL_PUBLISHER_SECRET_HEADER])) {
        sendJson(res, 401, { errors: [UNAUTHORIZED] });
        return true;
      }
      let body: { query?: unknown; variables?: unknown };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        sendJson(res, 400, { errors: [{ errorType: 'MalformedHttpRequestException', message: 'Body is not valid JSON' }] });
        return true;
      }
      if (typeof body.query !== 'string') {
        sendJson(res, 400, { errors: [{ errorType: 'BadRequestException', message: 'Missing query' }] });
        return true;
      }
      try {
        const variables = body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : {};
        const result = await runMutation(body.query, variables);
        sendJson(res, 200, { data: result.data ?? null, ...(result.errors ? { errors: result.errors.map((e) => ({ message: e.message })) } : {}) });
      } catch (error) {
        sendJson(res, 400, { errors: [{ errorType: 'BadRequestException', message: (error as Error).message }] });
      }
      return true;
    },

    async close() {
      server.off('upgrade', onUpgrade);
      for (const connection of connections) {
        clearInterval(connection.keepAlive);
        connection.socket.terminate();
      }
      connections.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
