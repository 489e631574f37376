import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import type { Item } from '../../lib/table/item.js';
import { queryAll } from '../../lib/table/query-all.js';
import { chartItemKey, CHART_SECTION_KEYS } from '../chart/chart-repository.js';
import type { TransactItem } from '../notes/note-at-version.js';
import { rxRestockKey, type RxRestock } from '../inventory/rx-restock.js';

/*
 * The chart medications a prescription note adds when signed, removes when deleted and puts back
 * when restored (docs/access-patterns.md). A removed medication is kept, whole, beside its deleted
 * note (pk practiceId, sk REMOVED_MEDICATION#<noteId>#<ident>), written in the delete's
 * transaction, so an admin who restores the note gets the same medication back.
 */
const removedPrefix = (noteId: string) => `REMOVED_MEDICATION#${noteId}#`;
const medicationEntityType = `CHART_${CHART_SECTION_KEYS.medications}`;

/** The dispensed medication's new chart item, for the signing transaction (written once). */
export function putNewMedication(practiceId: string, medication: { patientId: string; ident: string } & Record<string, unknown>): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...Object.fromEntries(Object.entries(medication).filter(([, v]) => v !== undefined)),
        practiceId,
        sk: chartItemKey(medication.patientId, 'medications', medication.ident),
        entityType: medicationEntityType,
      },
      ConditionExpression: 'attribute_not_exists(sk)',
    },
  };
}

/** The stored chart medication items of these idents (those still on the card), read consistently. */
export async function storedMedications(practiceId: string, patientId: string, idents: readonly string[]): Promise<Item[]> {
  const stored: Item[] = [];
  for (const ident of idents) {
    const out = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: { practiceId, sk: chartItemKey(patientId, 'medications', ident) }, ConsistentRead: true }),
    );
    if (out.Item) stored.push(out.Item);
  }
  return stored;
}

/** For the delete's transaction: each medication leaves the card and is kept beside the note. */
export function removeMedications(practiceId: string, noteId: string, stored: readonly Item[], removedAt: string): TransactItem[] {
  return stored.flatMap((item) => [
    { Delete: { TableName: tableName(), Key: { practiceId, sk: item.sk } } },
    { Put: { TableName: tableName(), Item: { ...item, sk: `${removedPrefix(noteId)}${String(item.ident)}`, entityType: 'REMOVED_MEDICATION', removedAt } } },
  ]);
}

/** The medications a note's delete kept, at most `limit`. */
export async function removedMedications(practiceId: string, noteId: string, limit: number): Promise<Item[]> {
  return (
    await queryAll({
      KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': practiceId, ':prefix': removedPrefix(noteId) },
      ConsistentRead: true,
    })
  ).slice(0, limit);
}

/** For the restore's transaction: each kept medication goes back on the card (unless one with its ident is there). */
export function restoreMedications(practiceId: string, kept: readonly Item[]): TransactItem[] {
  return kept.flatMap((item) => {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { removedAt, ...medication } = item;
    const patientId = String(item.patientId);
    return [
      { Delete: { TableName: tableName(), Key: { practiceId, sk: item.sk } } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...medication, sk: chartItemKey(patientId, 'medications', String(item.ident)), entityType: medicationEntityType },
          ConditionExpression: 'attribute_not_exists(sk)',
        },
      },
    ];
  });
}

/** The RX_RESTOCK marker of a deleted prescription whose quantity went back to stock, if any. */
export async function getRxRestock(practiceId: string, noteId: string): Promise<RxRestock | undefined> {
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: rxRestockKey(noteId) }, ConsistentRead: true }))).Item as
    RxRestock | undefined;
}

/** For the restore's transaction: the marker goes with the stock taken back (it must still be there). */
export function deleteRxRestock(practiceId: string, noteId: string): TransactItem {
  return { Delete: { TableName: tableName(), Key: { practiceId, sk: rxRestockKey(noteId) }, ConditionExpression: 'attribute_exists(sk)' } };
}
