import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { EngineError } from './dynalite-call.js';
import type { ChangeCapture } from './stream/change-capture.js';
import { Transactions } from './transactions.js';
import { writtenItems, type WriteLocks } from './write-locks.js';

const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'CreateTable', 'DeleteTable', 'UpdateTable']);
const ITEM_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface DynamoProxyOptions {
  enginePort: number;
  locks: WriteLocks;
  /** Table name → TTL attribute; the engine has no TTL API, so the proxy answers for it. */
  ttl: Map<string, string>;
  /** Hands every committed item write to the table's stream. */
  capture?: ChangeCapture;
}

/**
 * The endpoint the SDK talks to (DYNAMODB_ENDPOINT). It passes everything to the engine, holds
 * the write locks of the items each write names, and answers the operations the engine lacks.
 */
export async function startDynamoProxy(options: DynamoProxyOptions): Promise<{ server: Server; port: number }> {
  const transactions = new Transactions(options.enginePort);
  /** Runs a write holding the items it names, or everything when it names none we can read. */
  const holding = async <T>(operation: string, input: Record<string, unknown> | undefined, work: () => Promise<T>): Promise<T> => {
    const ids = input && (await writtenItems(operation, input, (table) => transactions.keyNames(table)));
    return ids ? options.locks.items(ids, work) : options.locks.all(work);
  };
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
        switch (operation) {
          case 'TransactWriteItems': {
            const input = parse(body);
            return answer(res, await holding(operation, input, () => transactions.transactWrite(input, options.capture)));
          }
          case 'TransactGetItems': {
            const input = parse(body);
            return answer(res, await holding(operation, input, () => transactions.transactGet(input)));
          }
          case 'DescribeTimeToLive':
            return answer(res, describeTtl(options.ttl, parse(body)));
          case 'UpdateTimeToLive':
            return answer(res, updateTtl(options.ttl, parse(body)));
          default:
            if (WRITE_OPERATIONS.has(operation)) {
              const { capture } = options;
              const input = ITEM_WRITES.has(operation) ? parseOrUndefined(body) : undefined;
              if (!capture || !input) return holding(operation, input, () => forward(options.enginePort, req, body, res));
              // The caller hears back once its change is in the stream, as with DynamoDB, where the record is part of the commit.
              const reply = await holding(operation, input, async () => {
                let engineReply: EngineReply | undefined;
                await capture.write(operation, input, async () => (engineReply = await forwardBuffered(options.enginePort, req, body)).status);
                return engineReply!;
              });
              res.writeHead(reply.status, reply.headers).end(reply.body);
              return;
            }
            return forward(options.enginePort, req, body, res);
        }
      })
      .catch((error: unknown) => {
        if (error instanceof EngineError) return answer(res, error.body, error.status);
        answer(res, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }, 500);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function parse(body: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new EngineError(400, { __type: 'com.amazon.coral.service#SerializationException' });
  }
}

/** A body the engine will refuse itself when it is not JSON. */
function parseOrUndefined(body: Buffer): Record<string, unknown> | undefined {
  try {
    return parse(body);
  } catch {
    return undefined;
  }
}

function describeTtl(ttl: Map<string, string>, input: Record<string, unknown>) {
  const attribute = ttl.get(String(input.TableName));
  return { TimeToLiveDescription: attribute ? { TimeToLiveStatus: 'ENABLED', AttributeName: attribute } : { TimeToLiveStatus: 'DISABLED' } };
}

function updateTtl(ttl: Map<string, string>, input: Record<string, unknown>) {
  const spec = input.TimeToLiveSpecification as { Enabled: boolean; AttributeName: string };
  if (spec.Enabled) ttl.set(String(input.TableName), spec.AttributeName);
  else ttl.delete(String(input.TableName));
  return { TimeToLiveSpecification: spec };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new EngineError(413, { __type: 'com.amazon.coral.service#RequestEntityTooLarge', message: 'Request too large' }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(text);
}

interface EngineReply {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** The engine's whole answer, to be relayed once the change is recorded. */
function forwardBuffered(enginePort: number, req: IncomingMessage, body: Buffer): Promise<EngineReply> {
  return new Promise((resolve, reject) => {
    const upstream = request(
      { host: '127.0.0.1', port: enginePort, method: req.method, path: req.url, headers: { ...req.headers, 'content-length': body.length } },
      (engineRes) => {
        const chunks: Buffer[] = [];
        engineRes.on('data', (c: Buffer) => chunks.push(c));
        engineRes.on('end', () => resolve({ status: engineRes.statusCode ?? 500, headers: engineRes.headers, body: Buffer.concat(chunks) }));
        engineRes.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

/** Pipes the engine's answer to the caller. */
function forward(enginePort: number, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = request(
      { host: '127.0.0.1', port: enginePort, method: req.method, path: req.url, headers: { ...req.headers, 'content-length': body.length } },
      (engineRes) => {
        res.writeHead(engineRes.statusCode ?? 500, engineRes.headers);
        engineRes.pipe(res);
        engineRes.on('end', () => resolve());
        engineRes.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
