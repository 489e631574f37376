import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { tableName } from '../../lib/table/definition.js';

/** Per-user dashboard layout: sk DASHBOARD#<userId> (not under USER#, which lists users). */
export const dashboardKey = (userId: string) => `DASHBOARD#${userId}`;

/** SET for the values given, REMOVE for nulls; undefined leaves a field as it is. */
function updateExpression(fields: Record<string, unknown>) {
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    if (v === null && k !== 'productDeactivatedAt' && k !== 'npiNumber' && k !== 'veradigmUserType') remove.push(`#${k}`);
    else {
      set.push(`#${k} = :${k}`);
      values[`:${k}`] = v;
    }
  }
  const expr = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' ');
  return { expr, names, values };
}

/** Updates the item at `key` (it must exist, else NotFoundError(notFound)); no fields given reads it. */
export async function updateSettingsItem(key: string, practiceId: string, fields: Record<string, unknown>, notFound: string): Promise<Record<string, unknown>> {
  const { expr, names, values } = updateExpression(fields);
  if (!expr) {
    const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: key }, ConsistentRead: true }));
    if (!out.Item) throw new NotFoundError(notFound);
    return out.Item;
  }
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: key },
        UpdateExpression: expr,
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(notFound);
    throw error;
  }
}

/** The item at `key`, read consistently (the practice item before a change to it). */
export async function getSettingsItem(practiceId: string, key: string): Promise<Record<string, unknown> | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: key }, ConsistentRead: true }));
  return out.Item;
}

export async function getDashboardItem(practiceId: string, userId: string): Promise<Record<string, unknown> | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: dashboardKey(userId) } }));
  return out.Item;
}

export async function putDashboardItem(practiceId: string, userId: string, widgets: unknown): Promise<void> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { practiceId, sk: dashboardKey(userId), entityType: 'DASHBOARD', userId, widgets } }),
  );
}
