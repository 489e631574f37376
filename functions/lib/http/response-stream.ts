/**
 * Lambda response streaming (Node.js managed runtime): a handler wrapped by
 * `awslambda.streamifyResponse` gets `(event, responseStream, context)`. Through a function URL in
 * RESPONSE_STREAM mode the bytes reach the client as written, after an HTTP prelude
 * (`awslambda.HttpResponseStream.from`: JSON metadata then 8 NUL bytes, content type
 * application/vnd.awslambda.http-integration-response). Invoked with Invoke (API Gateway), the
 * same handler's bytes are the buffered payload. Outside Lambda (tests, the local runtime) the same
 * marker and wire format are produced here, so the local runtime can run the handler either way.
 */
import type { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';

export const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
export const STREAM_RESPONSE = 'response';
export const HTTP_INTEGRATION_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
export const PRELUDE_DELIMITER_BYTES = 8;

export type ResponseStream = Writable & { setContentType(type: string): void };
export type StreamingHandler<E = unknown> = ((event: E, responseStream: ResponseStream, context: Context) => Promise<void>) & { [HANDLER_STREAMING]?: string };

export interface HttpPrelude {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
}

interface AwsLambdaGlobal {
  streamifyResponse<H>(handler: H): H;
  HttpResponseStream: { from(stream: Writable, prelude: HttpPrelude): Writable };
}
/** The Lambda Node.js runtime's global; other code may define a partial one, so both members are checked. */
function runtime(): AwsLambdaGlobal | undefined {
  const aws = (globalThis as unknown as { awslambda?: Partial<AwsLambdaGlobal> }).awslambda;
  return typeof aws?.streamifyResponse === 'function' && typeof aws.HttpResponseStream?.from === 'function' ? (aws as AwsLambdaGlobal) : undefined;
}

export function streamifyResponse<E>(handler: StreamingHandler<E>): StreamingHandler<E> {
  const aws = runtime();
  if (aws) return aws.streamifyResponse(handler);
  handler[HANDLER_STREAMING] = STREAM_RESPONSE;
  return handler;
}

export function isStreamingHandler(handler: unknown): handler is StreamingHandler {
  return typeof handler === 'function' && (handler as StreamingHandler)[HANDLER_STREAMING] === STREAM_RESPONSE;
}

/** Starts an HTTP response on a function URL stream: status and headers first, the body follows. */
export function httpResponseStream(stream: ResponseStream, prelude: HttpPrelude): Writable {
  const aws = runtime();
  if (aws) return aws.HttpResponseStream.from(stream, prelude);
  stream.setContentType(HTTP_INTEGRATION_CONTENT_TYPE);
  stream.write(JSON.stringify(prelude));
  stream.write(new Uint8Array(PRELUDE_DELIMITER_BYTES));
  return stream;
}

/** Resolves once everything written has been handed on. */
export function endStream(stream: Writable, chunk?: string): Promise<void> {
  return new Promise((resolve) => {
    stream.end(chunk ?? '', () => resolve());
  });
}

/**
 * A route's answer that is written as it is produced: SSE chunks through a function URL, or the
 * same chunks joined into one body when the request came through API Gateway (buffered).
 */
export class StreamedResult {
  constructor(
    readonly chunks: AsyncIterable<string>,
    readonly headers: Record<string, string> = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    readonly statusCode = 200,
  ) {}

  async buffered(): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
    let body = '';
    for await (const chunk of this.chunks) body += chunk;
    return { statusCode: this.statusCode, headers: this.headers, body };
  }
}
