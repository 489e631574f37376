import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PartnerApp } from '../../../shared/partners/partner-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/** Partner app items: pk practiceId, sk PARTNER_APP#<partnerAppId> (docs/access-patterns.md). */
export const PARTNER_APP_PREFIX = 'PARTNER_APP#';
export const partnerAppKey = (partnerAppId: string) => `${PARTNER_APP_PREFIX}${partnerAppId}`;

/** Fields an app was seeded or saved without (icon, path, note type, active) read as the input's defaults. */
export const partnerAppFromItem = (item: Item): PartnerApp => parseItem('partner app', PartnerApp, item);

export function partnerAppItem(practiceId: string, app: PartnerApp): Item {
  return { ...app, practiceId, sk: partnerAppKey(app.partnerAppId), entityType: 'PARTNER_APP' };
}

export async function listPartnerApps(practiceId: string): Promise<PartnerApp[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': PARTNER_APP_PREFIX },
  });
  return items.map(partnerAppFromItem).sort((a, b) => a.name.localeCompare(b.name));
}

export async function getPartnerApp(practiceId: string, partnerAppId: string): Promise<PartnerApp | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: partnerAppKey(partnerAppId) }, ConsistentRead: true }),
  );
  return out.Item ? partnerAppFromItem(out.Item) : null;
}

export async function putPartnerApp(practiceId: string, app: PartnerApp): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: partnerAppItem(practiceId, app) }));
}

export async function deletePartnerApp(practiceId: string, partnerAppId: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: partnerAppKey(partnerAppId) } }));
}
