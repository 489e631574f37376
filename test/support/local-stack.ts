import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { cognitoAdminClient, ensurePoolUser, type UserGroup } from '../../infra/local/cognito/provision-pool.js';
import type { LocalOutputs, LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { putIfAbsentIn, userItem } from '../../infra/local/seed/seed-practice.js';

export function stackOutputs(): LocalOutputs {
  return inject('localOutputs');
}

/** The table and file store behind the running stack, for arranging and asserting stored state. */
export function stackEndpoints(): LocalRuntime['endpoints'] {
  return inject('localEndpoints');
}

let table: DynamoDBDocumentClient | undefined;

/** A document client on the stack's table (same endpoint the handlers use). */
export function tableClient(): { client: DynamoDBDocumentClient; tableName: string } {
  const { dynamodb, tableName } = stackEndpoints();
  table ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: dynamodb, region: stackOutputs().region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  return { client: table, tableName };
}

function cognito() {
  const outputs = stackOutputs();
  return cognitoAdminClient(outputs.cognitoEndpoint, outputs.region);
}

/**
 * The practice's audit entries that match a filter, read through every page: the trail of a
 * runtime shared by every test file outgrows one Query page, and a filter applies per page.
 */
export async function practiceAuditEntries(
  filter: { FilterExpression?: string; ExpressionAttributeValues?: Record<string, unknown>; ExpressionAttributeNames?: Record<string, string> } = {},
  after = '',
): Promise<Record<string, unknown>[]> {
  const { client, tableName } = tableClient();
  const entries: Record<string, unknown>[] = [];
  let from: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: after ? 'practiceId = :p AND sk BETWEEN :after AND :last' : 'practiceId = :p AND begins_with(sk, :a)',
        FilterExpression: filter.FilterExpression,
        ExpressionAttributeNames: filter.ExpressionAttributeNames,
        ExpressionAttributeValues: {
          ':p': stackEndpoints().practiceId,
          ...(after ? { ':after': after, ':last': 'AUDIT#\uffff' } : { ':a': 'AUDIT#' }),
          ...filter.ExpressionAttributeValues,
        },
        ConsistentRead: true,
        ExclusiveStartKey: from,
      }),
    );
    entries.push(...(out.Items ?? []));
    from = out.LastEvaluatedKey;
  } while (from);
  return entries;
}

/** Every audit entry written about one patient (who did what to which of its records), oldest first. */
export async function patientAuditTrail(patientId: string): Promise<Record<string, unknown>[]> {
  const { client, tableName } = tableClient();
  const out = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `AUDIT#PATIENT#${patientId}` },
    }),
  );
  return out.Items ?? [];
}

/** Signs in with USER_PASSWORD_AUTH, as the web does locally; returns the ID token the API expects. */
export async function signIn(email: string, password: string = DEMO_PASSWORD): Promise<string> {
  const outputs = stackOutputs();
  const result = await cognito().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: outputs.userPoolClientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  const idToken = result.AuthenticationResult?.IdToken;
  if (!idToken) throw new Error(`No ID token for ${email}`);
  return idToken;
}

/** Calls the local API like the web does: `${apiUrl}${path}` with the bearer token and a JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api(token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const response = await fetch(`${stackOutputs().apiUrl}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/**
 * A user in the local pool (shared demo password) with its User item, signed in. practiceId
 * defaults to the stack's practice; another value makes a user of a foreign practice.
 */
export async function createTestUser(opts: { email: string; group: UserGroup; practiceId?: string; firstName?: string; lastName?: string }): Promise<string> {
  const practiceId = opts.practiceId ?? stackEndpoints().practiceId;
  const user = {
    email: opts.email,
    firstName: opts.firstName ?? 'Test',
    lastName: opts.lastName ?? opts.email.split('@')[0],
    group: opts.group,
  };
  const sub = await ensurePoolUser(cognito(), stackOutputs().userPoolId, { ...user, practiceId, password: DEMO_PASSWORD });
  const { client, tableName } = tableClient();
  await putIfAbsentIn(client, tableName, userItem(practiceId, sub, user, new Date().toISOString()));
  return signIn(opts.email);
}
