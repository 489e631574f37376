import { createHash } from 'node:crypto';
import type { ChangeCapture } from './stream/change-capture.js';
import { conditionHolds, prepareOperation, type PreparedOperation, type WriteKind } from './condition.js';
import { engine, EngineError } from './dynalite-call.js';
import { idempotentParameterMismatch, transactionCanceled, validationException, type CancellationReason } from './errors.js';

type AttributeMap = Record<string, unknown>;

const MAX_TRANSACTION_ITEMS = 100;
const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;
const WRITE_KINDS: WriteKind[] = ['ConditionCheck', 'Put', 'Delete', 'Update'];

interface WriteOperation {
  kind: WriteKind;
  input: AttributeMap;
  tableName: string;
  key: AttributeMap;
  prepared: PreparedOperation;
}

/**
 * TransactWriteItems and TransactGetItems over an engine that has neither. The caller runs these
 * holding the write locks of every item they name, so "check every condition, then apply" cannot
 * interleave with another write to those items; a write that still fails mid-way is rolled back
 * from the snapshots taken before applying.
 */
export class Transactions {
  private readonly keySchemas = new Map<string, string[]>();
  private readonly clientTokens = new Map<string, { hash: string; at: number }>();

  constructor(private readonly enginePort: number) {}

  async transactWrite(request: AttributeMap, capture?: ChangeCapture): Promise<AttributeMap> {
    const items = request.TransactItems;
    checkItemCount(items);
    const token = typeof request.ClientRequestToken === 'string' ? request.ClientRequestToken : undefined;
    const hash = createHash('sha256').update(JSON.stringify(items)).digest('hex');
    if (token && this.isRepeat(token, hash)) return {};

    const operations: WriteOperation[] = [];
    for (const item of items as AttributeMap[]) operations.push(await this.toWriteOperation(item));
    rejectDuplicateItems(operations.map((o) => [o.tableName, o.key]));

    const before = await Promise.all(operations.map((o) => this.currentItem(o.tableName, o.key)));
    const reasons: CancellationReason[] = operations.map((op, i) => {
      if (conditionHolds(op.prepared, before[i])) return { Code: 'None' };
      const wantsItem = op.input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD' && before[i];
      return { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', ...(wantsItem ? { Item: before[i] } : {}) };
    });
    if (reasons.some((r) => r.Code !== 'None')) throw transactionCanceled(reasons);

    const applied: number[] = [];
    for (const [i, op] of operations.entries()) {
      try {
        await this.apply(op);
        applied.push(i);
      } catch (error) {
        await this.rollBack(applied.reverse().map((j) => ({ op: operations[j], item: before[j] })));
        const message = error instanceof Error ? error.message : String(error);
        throw transactionCanceled(operations.map((_o, j) => (j === i ? { Code: 'ValidationError', Message: message } : { Code: 'None' })));
      }
    }
    if (token) this.clientTokens.set(token, { hash, at: Date.now() });
    // Only a committed transaction reaches the stream; a cancelled or rolled-back one threw above.
    await capture?.transaction(operations.map((o, i) => ({ kind: o.kind, tableName: o.tableName, key: o.key, input: o.input, before: before[i] })));
    return {};
  }

  async transactGet(request: AttributeMap): Promise<AttributeMap> {
    const items = request.TransactItems;
    checkItemCount(items);
    const gets = (items as AttributeMap[]).map((item) => {
      const get = item.Get as AttributeMap | undefined;
      if (!get || typeof get.TableName !== 'string' || !get.Key) {
        throw validationException('TransactItems can only contain Get operations with a TableName and a Key');
      }
      return get;
    });
    rejectDuplicateItems(gets.map((g) => [g.TableName as string, g.Key as AttributeMap]));
    const responses = await Promise.all(
      gets.map(async (get) => {
        const { Item } = await engine(this.enginePort, 'GetItem', { ...get, ConsistentRead: true });
        return Item ? { Item } : {};
      }),
    );
    return { Responses: responses };
  }

  private isRepeat(token: string, hash: string): boolean {
    const now = Date.now();
    for (const [t, v] of this.clientTokens) if (now - v.at > IDEMPOTENCY_WINDOW_MS) this.clientTokens.delete(t);
    const seen = this.clientTokens.get(token);
    if (!seen) return false;
    if (seen.hash !== hash) throw idempotentParameterMismatch();
    return true;
  }

  private async toWriteOperation(item: AttributeMap): Promise<WriteOperation> {
    const kinds = WRITE_KINDS.filter((k) => item[k] !== undefined && item[k] !== null);
    if (kinds.length !== 1) {
      throw validationException('TransactItems can only contain one of Check, Put, Update or Delete');
    }
    const kind = kinds[0];
    const input = item[kind] as AttributeMap;
    if (typeof input.TableName !== 'string') throw validationException('TableName is required for every transaction item');
    if (kind === 'ConditionCheck' && typeof input.ConditionExpression !== 'string') {
      throw validationException('ConditionExpression is required for a ConditionCheck');
    }
    const keyNames = await this.keyNames(input.TableName);
    const source = (kind === 'Put' ? input.Item : input.Key) as AttributeMap | undefined;
    if (!source || keyNames.some((k) => source[k] === undefined)) {
      throw validationException('The provided key element does not match the schema');
    }
    const key = Object.fromEntries(keyNames.map((k) => [k, source[k]]));
    return { kind, input, tableName: input.TableName, key, prepared: prepareOperation(kind, input) };
  }

  async keyNames(tableName: string): Promise<string[]> {
    const cached = this.keySchemas.get(tableName);
    if (cached) return cached;
    try {
      const { Table } = (await engine(this.enginePort, 'DescribeTable', { TableName: tableName })) as {
        Table: { KeySchema: { AttributeName: string }[] };
      };
      const names = Table.KeySchema.map((k) => k.AttributeName);
      this.keySchemas.set(tableName, names);
      return names;
    } catch (e) {
      if (e instanceof EngineError && e.type === 'ResourceNotFoundException') {
        throw new EngineError(400, { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' });
      }
      throw e;
    }
  }

  private async currentItem(tableName: string, key: AttributeMap): Promise<AttributeMap | undefined> {
    const { Item } = await engine(this.enginePort, 'GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
    return Item as AttributeMap | undefined;
  }

  private async apply(op: WriteOperation): Promise<void> {
    const { ReturnValuesOnConditionCheckFailure: _ignored, ...input } = op.input;
    if (op.kind === 'Put') await engine(this.enginePort, 'PutItem', input);
    else if (op.kind === 'Update') await engine(this.enginePort, 'UpdateItem', input);
    else if (op.kind === 'Delete') await engine(this.enginePort, 'DeleteItem', input);
  }

  private async rollBack(steps: { op: WriteOperation; item: AttributeMap | undefined }[]): Promise<void> {
    for (const { op, item } of steps) {
      if (op.kind === 'ConditionCheck') continue;
      if (item) await engine(this.enginePort, 'PutItem', { TableName: op.tableName, Item: item });
      else await engine(this.enginePort, 'DeleteItem', { TableName: op.tableName, Key: op.key });
    }
  }
}

function checkItemCount(items: unknown): void {
  if (!Array.isArray(items) || items.length === 0) {
    throw validationException("1 validation error detected: Value null at 'transactItems' failed to satisfy constraint: Member must not be null");
  }
  if (items.length > MAX_TRANSACTION_ITEMS) {
    throw validationException(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TRANSACTION_ITEMS}`,
    );
  }
}

function rejectDuplicateItems(keys: [string, AttributeMap][]): void {
  const seen = new Set<string>();
  for (const [table, key] of keys) {
    const id = `${table}\u0000${JSON.stringify(
      Object.keys(key)
        .sort()
        .map((k) => [k, key[k]]),
    )}`;
    if (seen.has(id)) throw validationException('Transaction request cannot include multiple operations on one item');
    seen.add(id);
  }
}
