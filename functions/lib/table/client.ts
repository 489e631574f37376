import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readMeterMiddleware } from './read-meter.js';

let client: DynamoDBDocumentClient | undefined;

/** One document client per process; DYNAMODB_ENDPOINT points it at the local engine. */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const base = new DynamoDBClient(
      endpoint
        ? { endpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {},
    );
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    // On the document client, so every read of the repositories is counted against its request.
    client.middlewareStack.add(readMeterMiddleware as never, { step: 'initialize', name: 'tidewellReadMeter' });
  }
  return client;
}

/** Tests and the local runtime switch endpoints between runs. */
export function resetDocumentClient(): void {
  client = undefined;
}
