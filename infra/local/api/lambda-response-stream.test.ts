import { describe, expect, it } from 'vitest';
import { httpResponseStream, streamifyResponse, isStreamingHandler, HTTP_INTEGRATION_CONTENT_TYPE } from '../../../functions/lib/http/response-stream.js';
import { bufferedResponseStream, lambdaResponseStream } from './lambda-response-stream.js';

function sink() {
  const seen: { status?: number; headers?: Record<string, string>; body: string[]; ended: boolean } = { body: [], ended: false };
  return {
    seen,
    sink: {
      start: (statusCode: number, headers: Record<string, string>) => Object.assign(seen, { status: statusCode, headers }),
      write: (c: Buffer) => void seen.body.push(c.toString('utf8')),
      end: () => void (seen.ended = true),
    },
  };
}

const write = (s: NodeJS.WritableStream, chunk: string | Uint8Array) => new Promise<void>((r) => s.write(chunk, () => r()));

describe('the local response stream of a streaming handler', () => {
  it('reads the HTTP prelude, even split across writes, then forwards each chunk as written', async () => {
    const { seen, sink: s } = sink();
    const stream = lambdaResponseStream(s);
    stream.setContentType(HTTP_INTEGRATION_CONTENT_TYPE);
    const prelude = JSON.stringify({ statusCode: 201, headers: { 'content-type': 'text/event-stream' } });
    await write(stream, prelude.slice(0, 10));
    expect(seen.status).toBeUndefined();
    await write(stream, Buffer.concat([Buffer.from(prelude.slice(10)), Buffer.alloc(8), Buffer.from('data: 1\n\n')]));
    expect(seen).toMatchObject({ status: 201, headers: { 'content-type': 'text/event-stream' }, body: ['data: 1\n\n'] });
    await write(stream, 'data: 2\n\n');
    expect(seen.body).toEqual(['data: 1\n\n', 'data: 2\n\n']);
    await new Promise<void>((r) => stream.end(() => r()));
    expect(seen.ended).toBe(true);
  });

  it('writes what httpResponseStream writes outside Lambda in the runtime wire format', async () => {
    const { seen, sink: s } = sink();
    const out = httpResponseStream(lambdaResponseStream(s), { statusCode: 503, headers: { 'content-type': 'application/json' } });
    await new Promise<void>((r) => out.end('{"message":"x"}', () => r()));
    expect(seen).toMatchObject({ status: 503, body: ['{"message":"x"}'], ended: true });
  });

  it('buffers an Invoke: the bytes written are the payload', async () => {
    const { stream, payload } = bufferedResponseStream();
    stream.write('{"statusCode":200,');
    stream.end('"body":"ok"}');
    expect(JSON.parse((await payload).toString())).toEqual({ statusCode: 200, body: 'ok' });
  });

  it('marks a streamified handler the way the Node.js runtime does', () => {
    const handler = streamifyResponse(async () => undefined);
    expect(isStreamingHandler(handler)).toBe(true);
    expect(isStreamingHandler(async () => undefined)).toBe(false);
  });
});
