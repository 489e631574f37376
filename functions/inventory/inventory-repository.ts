import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  CHARGE_ITEM_RESULTS,
  ChargeItem,
  INVENTORY_SETTINGS_DEFAULTS,
  InventoryItem,
  InventorySettings,
} from '../../shared/sales/sales-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/*
 * docs/access-patterns.md:
 *   inventory item     pk practiceId, sk INVENTORY#<inventoryId>
 *   charge item        pk practiceId, sk CHARGE_ITEM#<id>   (the billing catalog, searched in memory)
 *   inventory settings pk practiceId, sk SETTINGS#INVENTORY
 */
export const inventoryKey = (inventoryId: string) => `INVENTORY#${inventoryId}`;
export const chargeItemKey = (id: string) => `CHARGE_ITEM#${id}`;
export const INVENTORY_SETTINGS_KEY = 'SETTINGS#INVENTORY';

type Item = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-unused-vars
const strip = ({ practiceId, sk, entityType, ...rest }: Item) => rest;

const byPrefix = (practiceId: string, prefix: string) =>
  queryAll({ KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': practiceId, ':prefix': prefix } });

export async function listInventory(practiceId: string): Promise<InventoryItem[]> {
  return (await byPrefix(practiceId, 'INVENTORY#')).map((i) => InventoryItem.parse(strip(i))).sort((a, b) => a.genericName.localeCompare(b.genericName));
}

export async function getInventoryItem(practiceId: string, inventoryId: string): Promise<InventoryItem | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: inventoryKey(inventoryId) }, ConsistentRead: true }));
  return out.Item ? InventoryItem.parse(strip(out.Item)) : null;
}

export function inventoryItemRecord(practiceId: string, item: InventoryItem): Item {
  return { ...item, practiceId, sk: inventoryKey(item.inventoryId), entityType: 'INVENTORY_ITEM' };
}

export async function getChargeItem(practiceId: string, id: string): Promise<ChargeItem | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: chargeItemKey(id) } }));
  return out.Item ? ChargeItem.parse(strip(out.Item)) : null;
}

export function chargeItemRecord(practiceId: string, item: ChargeItem): Item {
  return { ...item, practiceId, sk: chargeItemKey(item.id), entityType: 'CHARGE_ITEM' };
}

/** provider/charge_items?q=: name, code, manufacturer or category containing every typed word; all (first 25) when empty. */
export async function searchChargeItems(practiceId: string, q: string): Promise<ChargeItem[]> {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const items = (await byPrefix(practiceId, 'CHARGE_ITEM#')).map((i) => ChargeItem.parse(strip(i)));
  return items
    .filter((c) => {
      const hay = [c.name, c.code, c.manufacturer ?? '', c.category?.name ?? ''].join(' ').toLowerCase();
      return words.every((w) => hay.includes(w));
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, CHARGE_ITEM_RESULTS);
}

/** Spec shell §8: a practice without inventory settings uses the defaults. */
export async function getInventorySettings(practiceId: string): Promise<InventorySettings> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: INVENTORY_SETTINGS_KEY } }));
  return InventorySettings.parse({ ...INVENTORY_SETTINGS_DEFAULTS, ...(out.Item ? strip(out.Item) : {}) });
}

export async function putInventorySettings(auth: AuthContext, update: Partial<InventorySettings>): Promise<InventorySettings> {
  const next = { ...(await getInventorySettings(auth.practiceId)), ...update };
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...next, practiceId: auth.practiceId, sk: INVENTORY_SETTINGS_KEY, entityType: 'INVENTORY_SETTINGS' } }));
  await writeAudit(auth, { action: 'update', entity: 'inventory-settings' });
  return next;
}
