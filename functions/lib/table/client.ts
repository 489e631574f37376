import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readMeterMiddleware } from './read-meter.js';
import { currentTableScope } from './scope.js';

let client: DynamoDBDocumentClient | undefined;

/** One document client per process; DYNAMODB_ENDPOINT points it at the local engine; withTable() overrides it. */
export function documentClient(): DynamoDBDocumentClient {
  const scoped = currentTableScope();
  if (scoped) return scoped.client;
  if (!client) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const base = new DynamoDBClient(
      endpoint ? { endpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
    );
    client = documentClientOn(base);
    // On the document client, so every read of the repositories is counted against its request.
    client.middlewareStack.add(readMeterMiddleware as never, { step: 'initialize', name: 'tidewellReadMeter' });
  }
  return client;
}

/** A document client over `base` that writes items as the repositories expect (undefined attributes left out). */
export function documentClientOn(base: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
}

/** Tests and the local runtime switch endpoints between runs. */
export function resetDocumentClient(): void {
  client = undefined;
}
