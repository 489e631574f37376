import { engine } from '../dynalite-call.js';
import type { LocalTableStream } from './table-stream.js';
import type { AttributeMap, ItemChange } from './stream-record.js';

/** A write inside a transaction, with the item as it was before the transaction. */
export interface TransactionWrite {
  kind: 'ConditionCheck' | 'Put' | 'Delete' | 'Update';
  tableName: string;
  key: AttributeMap;
  input: AttributeMap;
  before: AttributeMap | undefined;
}

/**
 * Reads the images the stream needs around each write. Every method runs holding the write locks
 * of the items it writes, so "before", the write and "after" cannot interleave with another
 * writer of those items, and each item's changes reach the stream in commit order (DynamoDB
 * Streams' own promise). Nothing is read when no consumer reads the table's stream.
 */
export class ChangeCapture {
  constructor(
    private readonly enginePort: number,
    private readonly keyNames: (table: string) => Promise<string[]>,
    private readonly stream: LocalTableStream,
  ) {}

  /** PutItem, UpdateItem, DeleteItem and BatchWriteItem; `write` answers the engine's HTTP status. */
  async write(operation: string, input: AttributeMap, write: () => Promise<number>): Promise<void> {
    const targets: Awaited<ReturnType<ChangeCapture['targets']>> = [];
    for (const t of await this.targets(operation, input)) {
      if (t.kind !== 'Put' || this.stream.mayDeliverPut(await this.change(t.tableName, t.key, undefined, t.item))) targets.push(t);
    }
    if (!targets.length) {
      await write();
      return;
    }
    const before = await this.currentMany(targets);
    if ((await write()) !== 200) return;
    const changes: ItemChange[] = [];
    for (const [i, t] of targets.entries()) {
      const after = t.kind === 'Put' ? t.item : t.kind === 'Update' ? await this.current(t.tableName, t.key) : undefined;
      changes.push(await this.change(t.tableName, t.key, before[i], after));
    }
    this.stream.publish(changes);
  }

  /** After a transaction applied every write: one change per written item, in request order. */
  async transaction(writes: readonly TransactionWrite[]): Promise<void> {
    const changes: ItemChange[] = [];
    for (const w of writes) {
      if (w.kind === 'ConditionCheck' || !this.stream.wants(w.tableName)) continue;
      const after = w.kind === 'Put' ? (w.input.Item as AttributeMap) : w.kind === 'Update' ? await this.current(w.tableName, w.key) : undefined;
      changes.push(await this.change(w.tableName, w.key, w.before, after));
    }
    this.stream.publish(changes);
  }

  /** A TTL deletion, with the item it removed. */
  async expired(tableName: string, key: AttributeMap, oldImage: AttributeMap): Promise<void> {
    if (!this.stream.wants(tableName)) return;
    this.stream.publish([{ ...(await this.change(tableName, key, oldImage, undefined)), expired: true }]);
  }

  wants(tableName: string): boolean {
    return this.stream.wants(tableName);
  }

  private async change(tableName: string, key: AttributeMap, oldImage: AttributeMap | undefined, newImage: AttributeMap | undefined): Promise<ItemChange> {
    const [hashKey] = await this.keyNames(tableName);
    return { tableName, keys: key, partition: JSON.stringify(key[hashKey]), oldImage, newImage };
  }

  private async targets(operation: string, input: AttributeMap) {
    const found: { kind: 'Put' | 'Update' | 'Delete'; tableName: string; key: AttributeMap; item?: AttributeMap }[] = [];
    const add = async (kind: 'Put' | 'Update' | 'Delete', tableName: unknown, source: unknown, item?: AttributeMap) => {
      if (typeof tableName !== 'string' || !source || typeof source !== 'object' || !this.stream.wants(tableName)) return;
      const names = await this.keyNames(tableName);
      const attributes = source as AttributeMap;
      // A key the engine will refuse anyway: let it answer, nothing to record.
      if (names.some((n) => attributes[n] === undefined)) return;
      found.push({ kind, tableName, key: Object.fromEntries(names.map((n) => [n, attributes[n]])), item });
    };
    if (operation === 'PutItem') await add('Put', input.TableName, input.Item, input.Item as AttributeMap);
    else if (operation === 'UpdateItem') await add('Update', input.TableName, input.Key);
    else if (operation === 'DeleteItem') await add('Delete', input.TableName, input.Key);
    else if (operation === 'BatchWriteItem') {
      for (const [tableName, requests] of Object.entries((input.RequestItems ?? {}) as Record<string, AttributeMap[]>)) {
        for (const request of Array.isArray(requests) ? requests : []) {
          const put = request.PutRequest as AttributeMap | undefined;
          const del = request.DeleteRequest as AttributeMap | undefined;
          if (put) await add('Put', tableName, put.Item, put.Item as AttributeMap);
          else if (del) await add('Delete', tableName, del.Key);
        }
      }
    }
    return found;
  }

  /** The items behind several keys in one BatchGetItem per 100 keys (a BatchWriteItem holds up to 25). */
  private async currentMany(targets: readonly { tableName: string; key: AttributeMap }[]): Promise<(AttributeMap | undefined)[]> {
    if (targets.length === 1) return [await this.current(targets[0].tableName, targets[0].key)];
    const id = (tableName: string, key: AttributeMap) =>
      `${tableName}\u0000${JSON.stringify(
        Object.keys(key)
          .sort()
          .map((k) => key[k]),
      )}`;
    const found = new Map<string, AttributeMap>();
    for (let i = 0; i < targets.length; i += 100) {
      let request: Record<string, { Keys: AttributeMap[]; ConsistentRead: true }> = {};
      for (const t of targets.slice(i, i + 100)) (request[t.tableName] ??= { Keys: [], ConsistentRead: true }).Keys.push(t.key);
      while (Object.keys(request).length) {
        const out = (await engine(this.enginePort, 'BatchGetItem', { RequestItems: request })) as {
          Responses?: Record<string, AttributeMap[]>;
          UnprocessedKeys?: Record<string, { Keys: AttributeMap[]; ConsistentRead: true }>;
        };
        for (const [tableName, items] of Object.entries(out.Responses ?? {})) {
          const names = await this.keyNames(tableName);
          for (const item of items) found.set(id(tableName, Object.fromEntries(names.map((n) => [n, item[n]]))), item);
        }
        request = out.UnprocessedKeys ?? {};
      }
    }
    return targets.map((t) => found.get(id(t.tableName, t.key)));
  }

  private async current(tableName: string, key: AttributeMap): Promise<AttributeMap | undefined> {
    const { Item } = await engine(this.enginePort, 'GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
    return Item as AttributeMap | undefined;
  }
}
