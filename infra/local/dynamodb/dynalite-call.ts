import { request } from 'node:http';

export interface EngineResponse {
  status: number;
  body: Record<string, unknown>;
}

/** An error the engine answered with, in DynamoDB's JSON error shape. */
export class EngineError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.Message ?? body.__type ?? 'DynamoDB error'));
  }

  get type(): string {
    return (
      String(this.body.__type ?? '')
        .split('#')
        .pop() ?? ''
    );
  }
}

/** The engine insists on a SigV4-looking header; it does not verify it. */
function fakeSignatureHeaders(): Record<string, string> {
  const now = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=local/${now.slice(0, 8)}/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local`,
    'x-amz-date': now,
  };
}

/** Calls one DynamoDB operation on the engine's own port, bypassing the proxy. */
export function engineCall(port: number, operation: string, input: unknown): Promise<EngineResponse> {
  const payload = Buffer.from(JSON.stringify(input));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'content-length': payload.length,
          'x-amz-target': `DynamoDB_20120810.${operation}`,
          ...fakeSignatureHeaders(),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> = {};
          try {
            body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            body = { __type: 'com.amazon.coral.service#InternalFailure', message: text };
          }
          resolve({ status: res.statusCode ?? 500, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Same as engineCall, but a non-200 answer becomes an EngineError. */
export async function engine(port: number, operation: string, input: unknown): Promise<Record<string, unknown>> {
  const res = await engineCall(port, operation, input);
  if (res.status !== 200) throw new EngineError(res.status, res.body);
  return res.body;
}
