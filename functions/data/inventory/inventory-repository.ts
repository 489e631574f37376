import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { INVENTORY_MESSAGES, priceWithMarkup } from '../../../shared/inventory/inventory-rules.js';
import { RestockEntry, type InventoryCreateBody, type InventoryUpdateBody } from '../../../shared/inventory/inventory-schema.js';
import { CHARGE_ITEM_MESSAGES, type ChargeItemInput } from '../../../shared/sales/charge-item-input.js';
import { CHARGE_ITEM_RESULTS, ChargeItem, INVENTORY_SETTINGS_DEFAULTS, InventoryItem, InventorySettings } from '../../../shared/sales/sales-schema.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { getUser } from '../users/user-repository.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { queryAll } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { rxRestockKey, type RxRestock } from './rx-restock.js';
import { parseItem, withoutKeys, type Item } from '../../lib/table/item.js';

/*
 * docs/access-patterns.md:
 *   inventory item     pk practiceId, sk INVENTORY#<inventoryId>
 *   charge item        pk practiceId, sk CHARGE_ITEM#<id>   (the billing catalog, searched in memory)
 *   inventory settings pk practiceId, sk SETTINGS#INVENTORY
 */
export const inventoryKey = (inventoryId: string) => `INVENTORY#${inventoryId}`;
export const chargeItemKey = (id: string) => `CHARGE_ITEM#${id}`;
export const INVENTORY_SETTINGS_KEY = 'SETTINGS#INVENTORY';

const byPrefix = (practiceId: string, prefix: string) =>
  queryAll({ KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': practiceId, ':prefix': prefix } });

export async function listInventory(practiceId: string): Promise<InventoryItem[]> {
  return (await byPrefix(practiceId, 'INVENTORY#'))
    .map((i) => parseItem('inventory item', InventoryItem, i))
    .sort((a, b) => a.genericName.localeCompare(b.genericName));
}

export async function getInventoryItem(practiceId: string, inventoryId: string): Promise<InventoryItem | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: inventoryKey(inventoryId) }, ConsistentRead: true }));
  return out.Item ? parseItem('inventory item', InventoryItem, out.Item) : null;
}

export function inventoryItemRecord(practiceId: string, item: InventoryItem): Item {
  return { ...item, practiceId, sk: inventoryKey(item.inventoryId), entityType: 'INVENTORY_ITEM' };
}

export async function getChargeItem(practiceId: string, id: string): Promise<ChargeItem | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: chargeItemKey(id) } }));
  return out.Item ? parseItem('charge item', ChargeItem, out.Item) : null;
}

export function chargeItemRecord(practiceId: string, item: ChargeItem): Item {
  return { ...item, practiceId, sk: chargeItemKey(item.id), entityType: 'CHARGE_ITEM' };
}

function chargeItemFrom(id: string, input: ChargeItemInput): ChargeItem {
  const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
  const category = text(input.category);
  return {
    id,
    name: input.name,
    code: text(input.code) ?? '',
    manufacturer: text(input.manufacturer),
    priceInCents: input.priceInCents,
    category: category ? { name: category } : null,
  };
}

/** An admin adds an item to the billing catalog that sales notes charge from. */
export async function createChargeItem(auth: AuthContext, input: ChargeItemInput): Promise<ChargeItem> {
  const item = chargeItemFrom(randomUUID(), input);
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: chargeItemRecord(auth.practiceId, item), ConditionExpression: 'attribute_not_exists(sk)' }),
  );
  await writeAudit(auth, { action: 'create', entity: 'charge_item', entityId: item.id });
  return item;
}

/** A signed sales note keeps the name and price it charged: changing the catalog changes later notes only. */
export async function updateChargeItem(auth: AuthContext, id: string, input: ChargeItemInput): Promise<ChargeItem> {
  const item = chargeItemFrom(id, input);
  try {
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: chargeItemRecord(auth.practiceId, item), ConditionExpression: 'attribute_exists(sk)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(CHARGE_ITEM_MESSAGES.notFound);
    throw err;
  }
  await writeAudit(auth, { action: 'update', entity: 'charge_item', entityId: id });
  return item;
}

export async function deleteChargeItem(auth: AuthContext, id: string): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: chargeItemKey(id) }, ConditionExpression: 'attribute_exists(sk)' }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new NotFoundError(CHARGE_ITEM_MESSAGES.notFound);
    throw err;
  }
  await writeAudit(auth, { action: 'delete', entity: 'charge_item', entityId: id });
}

/** provider/charge_items?q=: name, code, manufacturer or category containing every typed word; all (first 25) when empty. */
export async function searchChargeItems(practiceId: string, q: string): Promise<ChargeItem[]> {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const items = (await byPrefix(practiceId, 'CHARGE_ITEM#')).map((i) => parseItem('charge item', ChargeItem, i));
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
  return InventorySettings.parse({ ...INVENTORY_SETTINGS_DEFAULTS, ...(out.Item ? withoutKeys(out.Item) : {}) });
}

export async function putInventorySettings(auth: AuthContext, update: Partial<InventorySettings>): Promise<InventorySettings> {
  const next = { ...(await getInventorySettings(auth.practiceId)), ...update };
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...next, practiceId: auth.practiceId, sk: INVENTORY_SETTINGS_KEY, entityType: 'INVENTORY_SETTINGS' } }),
  );
  await writeAudit(auth, { action: 'update', entity: 'inventory-settings' });
  return next;
}

/*
 * docs/access-patterns.md:
 *   restock entry      pk practiceId, sk RESTOCK#<inventoryId>#<at ISO>#<restockId>   (an item's stock history, oldest first)
 */
export const restockPrefix = (inventoryId: string) => `RESTOCK#${inventoryId}#`;

/** The transaction item that takes `quantity` out of an item's stock, never below zero (a cancellation when there is not enough). */
export function takeFromStock(practiceId: string, inventoryId: string, quantity: number, now: Date) {
  return {
    Update: {
      TableName: tableName(),
      Key: { practiceId, sk: inventoryKey(inventoryId) },
      UpdateExpression: 'SET quantityInStock = quantityInStock - :q, updatedAt = :at',
      ConditionExpression: 'attribute_exists(sk) AND quantityInStock >= :q',
      ExpressionAttributeValues: { ':q': quantity, ':at': now.toISOString() },
    },
  };
}

/**
 * The history entry of a takeFromStock in the same transaction: its change only, since the
 * stock after it is not read (a dispense, a sale, a restore), and the note it was for.
 */
export function stockTakenEntry(
  practiceId: string,
  taken: { inventoryId: string; quantity: number; reasonForEditing: string; by: { userId: string; name: string }; now: Date; noteId: string },
) {
  const { inventoryId, quantity, reasonForEditing, by, now, noteId } = taken;
  return {
    Put: {
      TableName: tableName(),
      Item: restockRecord(practiceId, {
        inventoryId,
        change: -quantity,
        quantityAfter: null,
        reasonForEditing,
        userId: by.userId,
        userName: by.name,
        at: now.toISOString(),
        noteId,
      }),
    },
  };
}

/** The stock-history entry written in the same transaction as the change of quantityInStock. */
export function restockRecord(practiceId: string, entry: Omit<RestockEntry, 'restockId'>): Item {
  const restockId = randomUUID();
  return { ...entry, restockId, practiceId, sk: `${restockPrefix(entry.inventoryId)}${entry.at}#${restockId}`, entityType: 'RESTOCK' };
}

export async function listRestocks(auth: AuthContext, inventoryId: string): Promise<RestockEntry[]> {
  if (!(await getInventoryItem(auth.practiceId, inventoryId))) throw new NotFoundError(INVENTORY_MESSAGES.notFound);
  return (await byPrefix(auth.practiceId, restockPrefix(inventoryId))).map((i) => parseItem('restock entry', RestockEntry, i));
}

async function whoIs(auth: AuthContext): Promise<{ userId: string; userName: string }> {
  const user = await getUser(auth.practiceId, auth.userId);
  return { userId: auth.userId, userName: user?.name.trim() || auth.name };
}

/** POST /v2/inventories: the first stock is the item's first restock entry. */
export async function createInventoryItem(auth: AuthContext, body: InventoryCreateBody, now = new Date()): Promise<InventoryItem> {
  const settings = await getInventorySettings(auth.practiceId);
  const item: InventoryItem = InventoryItem.parse({
    inventoryId: randomUUID(),
    genericName: body.genericName,
    brandName: body.brandName ?? null,
    strength: body.strength ?? null,
    form: body.form ?? null,
    ndcNumber: body.ndcNumber ?? null,
    expirationDate: body.expirationDate ?? null,
    quantityInStock: body.quantityInStock,
    isHidden: body.isHidden ?? false,
    costPerUnit: body.costPerUnit,
    finalPrice: body.finalPrice ?? priceWithMarkup(body.costPerUnit, settings.defaultMarkupPercentage),
    restockLevel: body.restockLevel ?? Math.floor((body.quantityInStock * settings.defaultRestockPercentage) / 100),
    updatedAt: now.toISOString(),
  });
  const who = await whoIs(auth);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: inventoryItemRecord(auth.practiceId, item), ConditionExpression: 'attribute_not_exists(sk)' } },
        ...(item.quantityInStock > 0
          ? [
              {
                Put: {
                  TableName: tableName(),
                  Item: restockRecord(auth.practiceId, {
                    inventoryId: item.inventoryId,
                    change: item.quantityInStock,
                    quantityAfter: item.quantityInStock,
                    reasonForEditing: 'Initial stock',
                    ...who,
                    at: now.toISOString(),
                  }),
                },
              },
            ]
          : []),
      ],
    }),
  );
  await writeAudit(auth, { action: 'create', entity: 'inventory-item', entityId: item.inventoryId });
  return item;
}

/**
 * The deleted, dispensed prescription a restock names (spec notes §7 'Interaction delete restock'):
 * its item and quantity must be the ones it dispensed. Returns the condition that keeps it deleted
 * at that version until the restock is written, and the marker a restore takes the quantity back by.
 */
async function restockedPrescription(practiceId: string, inventoryId: string, noteId: string, change: number, userId: string, now: Date): Promise<Item[]> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: `NOTE#${noteId}` }, ConsistentRead: true }));
  const note = out.Item as
    | { noteType?: string; status?: string; signed?: string | null; noteVersion?: number; data?: { inventoryId?: unknown; quantityPrescribed?: unknown } }
    | undefined;
  const dispensed =
    note?.noteType === 'RX' &&
    note.status === 'DELETED' &&
    Boolean(note.signed) &&
    note.data?.inventoryId === inventoryId &&
    Number(note.data?.quantityPrescribed) === change;
  if (!dispensed) throw new ValidationError(INVENTORY_MESSAGES.restockNotForNote, { noteId: INVENTORY_MESSAGES.restockNotForNote });
  const marker: RxRestock = { noteId, inventoryId, quantity: change, restockedAt: now.toISOString(), userId };
  return [
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: { practiceId, sk: `NOTE#${noteId}` },
        ConditionExpression: '#s = :deleted AND noteVersion = :v',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':deleted': 'DELETED', ':v': note!.noteVersion },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...marker, practiceId, sk: rxRestockKey(noteId), entityType: 'RX_RESTOCK' },
        ConditionExpression: 'attribute_not_exists(sk)',
      },
    },
  ];
}

/**
 * PUT /v2/inventories: changes the fields sent. A new quantityInStock is written on the condition that
 * the stock is still the one read (or the one the editor saw), with its restock entry in the same
 * transaction, so a dispense in between is never overwritten. A restock that names a deleted
 * prescription (`noteId`) is written once, with the marker its restore takes the quantity out by.
 */
export async function updateInventoryItem(auth: AuthContext, body: InventoryUpdateBody, now = new Date()): Promise<InventoryItem> {
  const current = await getInventoryItem(auth.practiceId, body.inventoryId);
  if (!current) throw new NotFoundError(INVENTORY_MESSAGES.notFound);
  const seen = body.expectedQuantityInStock ?? current.quantityInStock;
  if (seen !== current.quantityInStock) throw new ConflictError(INVENTORY_MESSAGES.stockChanged, { quantityInStock: current.quantityInStock });
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { inventoryId, expectedQuantityInStock, reasonForEditing, noteId, ...changes } = body;
  const next = InventoryItem.parse({
    ...current,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    updatedAt: now.toISOString(),
  });
  const change = next.quantityInStock - current.quantityInStock;
  const prescription = noteId ? await restockedPrescription(auth.practiceId, inventoryId, noteId, change, auth.userId, now) : [];
  const who = await whoIs(auth);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: inventoryItemRecord(auth.practiceId, next),
              ...unchangedSince('quantityInStock', current.quantityInStock),
            },
          },
          ...(change !== 0
            ? [
                {
                  Put: {
                    TableName: tableName(),
                    Item: restockRecord(auth.practiceId, {
                      inventoryId,
                      change,
                      quantityAfter: next.quantityInStock,
                      reasonForEditing: reasonForEditing!,
                      ...who,
                      at: now.toISOString(),
                      ...(noteId ? { noteId } : {}),
                    }),
                  },
                },
              ]
            : []),
          ...prescription,
        ],
      }),
    );
  } catch (error) {
    const e = error as { name?: string; CancellationReasons?: ({ Code?: string } | null)[] };
    if (e?.name === 'TransactionCanceledException') {
      const reasons = e.CancellationReasons ?? [];
      // With a prescription: [stock, entry, the note still deleted, its marker not yet written].
      if (noteId && reasons[3]?.Code === 'ConditionalCheckFailed') throw new ConflictError(INVENTORY_MESSAGES.alreadyRestocked);
      if (noteId && reasons[2]?.Code === 'ConditionalCheckFailed') throw new ConflictError(INVENTORY_MESSAGES.restockNoteChanged);
      const fresh = await getInventoryItem(auth.practiceId, inventoryId);
      throw new ConflictError(INVENTORY_MESSAGES.stockChanged, { quantityInStock: fresh?.quantityInStock ?? null });
    }
    throw error;
  }
  await writeAudit(auth, { action: 'update', entity: 'inventory-item', entityId: inventoryId });
  return next;
}

export async function requireInventoryItem(auth: AuthContext, inventoryId: string): Promise<InventoryItem> {
  const item = await getInventoryItem(auth.practiceId, inventoryId);
  if (!item) throw new NotFoundError(INVENTORY_MESSAGES.notFound);
  await writeAudit(auth, { action: 'read', entity: 'inventory-item', entityId: inventoryId });
  return item;
}
