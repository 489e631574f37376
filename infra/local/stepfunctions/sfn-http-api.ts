import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SfnServiceError, type LocalStepFunctions } from './execution-service.js';

const seconds = (date?: Date) => (date ? date.getTime() / 1000 : undefined);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, status: number, body: unknown, errorType?: string) {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
  res.end(JSON.stringify(body));
}

/**
 * The Step Functions JSON 1.0 API (StartExecution, DescribeExecution) over the local execution
 * service, so handlers use @aws-sdk/client-sfn with only an endpoint override (SFN_ENDPOINT).
 */
export async function serveStepFunctionsApi(service: LocalStepFunctions, port = 0): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const target = String(req.headers['x-amz-target'] ?? '');
        const body = JSON.parse((await readBody(req)) || '{}');
        if (target === 'AWSStepFunctions.StartExecution') {
          const out = await service.startExecution(body);
          return reply(res, 200, { executionArn: out.executionArn, startDate: seconds(out.startDate) });
        }
        if (target === 'AWSStepFunctions.DescribeExecution') {
          const out = await service.describeExecution(body);
          return reply(res, 200, { ...out, startDate: seconds(out.startDate), stopDate: seconds(out.stopDate) });
        }
        reply(res, 400, { __type: 'UnknownOperationException', message: `The local runtime does not serve ${target}` }, 'UnknownOperationException');
      } catch (error) {
        if (error instanceof SfnServiceError) return reply(res, 400, { __type: error.name, message: error.message }, error.name);
        reply(res, 500, { __type: 'InternalFailure', message: String(error) }, 'InternalFailure');
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
