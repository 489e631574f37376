import { Writable } from 'node:stream';
import { HTTP_INTEGRATION_CONTENT_TYPE, PRELUDE_DELIMITER_BYTES, type ResponseStream } from '../../../functions/lib/http/response-stream.js';

/** What the Lambda service makes of a streaming handler's bytes once it knows the status and headers. */
export interface StreamSink {
  start(statusCode: number, headers: Record<string, string>, cookies: string[]): void;
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * The response stream the Node.js runtime gives a streaming handler: setContentType, then bytes.
 * With the HTTP integration content type (function URLs) the JSON prelude up to 8 NUL bytes sets
 * the status and headers, the rest is the body, forwarded as written; otherwise the bytes are the
 * body with the content type given (200).
 */
export function lambdaResponseStream(sink: StreamSink): ResponseStream {
  let contentType = 'application/octet-stream';
  let started = false;
  let pending = Buffer.alloc(0);
  const startPlain = () => {
    started = true;
    sink.start(200, { 'content-type': contentType }, []);
  };
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (started) {
        sink.write(bytes);
        return done();
      }
      if (contentType !== HTTP_INTEGRATION_CONTENT_TYPE) {
        startPlain();
        sink.write(bytes);
        return done();
      }
      pending = Buffer.concat([pending, bytes]);
      const at = pending.indexOf(Buffer.alloc(PRELUDE_DELIMITER_BYTES));
      if (at < 0) return done();
      let prelude: { statusCode?: number; headers?: Record<string, string>; cookies?: string[] };
      try {
        prelude = JSON.parse(pending.subarray(0, at).toString('utf8'));
      } catch {
        return done(new Error('Malformed HTTP integration prelude'));
      }
      started = true;
      sink.start(prelude.statusCode ?? 200, prelude.headers ?? {}, prelude.cookies ?? []);
      const rest = pending.subarray(at + PRELUDE_DELIMITER_BYTES);
      if (rest.length) sink.write(rest);
      done();
    },
    final(done) {
      if (!started) startPlain();
      sink.end();
      done();
    },
  }) as ResponseStream;
  stream.setContentType = (type: string) => {
    contentType = type;
  };
  return stream;
}

/** A streaming handler invoked with Invoke (API Gateway): the whole payload, once the handler ends it. */
export function bufferedResponseStream(): { stream: ResponseStream; payload: Promise<Buffer> } {
  const chunks: Buffer[] = [];
  let resolve!: (b: Buffer) => void;
  const payload = new Promise<Buffer>((r) => (resolve = r));
  const stream = lambdaResponseStream({ start: () => undefined, write: (c) => void chunks.push(c), end: () => resolve(Buffer.concat(chunks)) });
  return { stream, payload };
}
