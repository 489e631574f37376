type AttributeMap = Record<string, unknown>;

const settled = (): void => undefined;

/**
 * The local engine's write locks. DynamoDB orders writes per item, not per table: two staff saving
 * two drafts never wait on each other. So a write here holds only the items it names (a PutItem's,
 * a batch's, a transaction's, a TTL deletion's), long enough that "read the item before, write,
 * read it after" and a transaction's "check every condition, then apply" cannot interleave with
 * another write to those items. Table operations, and a request whose keys cannot be read, hold
 * everything. Waiters go in arrival order; holding several items is one step, so no two writes
 * can each hold what the other waits for.
 */
export class WriteLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  private barrier: Promise<void> = Promise.resolve();

  /** Runs `work` once every earlier holder of any of `ids`, and every earlier `all`, settled. */
  items<T>(ids: readonly string[], work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(ids)];
    const before = [this.barrier, ...unique.flatMap((id) => this.tails.get(id) ?? [])];
    return this.hold(before, work, (done) => {
      for (const id of unique) this.tails.set(id, done);
      return () => {
        for (const id of unique) if (this.tails.get(id) === done) this.tails.delete(id);
      };
    });
  }

  /** Runs `work` alone: after every write admitted before it, and before any admitted after. */
  all<T>(work: () => Promise<T>): Promise<T> {
    return this.hold([this.barrier, ...this.running], work, (done) => {
      this.barrier = done;
      return settled;
    });
  }

  /** Settles once everything admitted so far has. */
  idle(): Promise<void> {
    return Promise.all([this.barrier, ...this.running]).then(settled);
  }

  private hold<T>(before: Promise<void>[], work: () => Promise<T>, register: (done: Promise<void>) => () => void): Promise<T> {
    const result = Promise.all(before).then(work);
    const done = result.then(settled, settled);
    const release = register(done);
    this.running.add(done);
    void done.then(() => {
      this.running.delete(done);
      release();
    });
    return result;
  }
}

/** One item's lock name: its table and its key attributes in the key schema's order. */
export function itemLockId(tableName: string, keyNames: readonly string[], attributes: AttributeMap): string | undefined {
  if (keyNames.some((n) => attributes[n] === undefined)) return undefined;
  return `${tableName}\u0000${JSON.stringify(keyNames.map((n) => attributes[n]))}`;
}

/**
 * The items a write request names, as lock ids; undefined when one of them cannot be named (an
 * unknown table, a key attribute missing), so the caller holds everything and the engine answers
 * the request's error itself.
 */
export async function writtenItems(operation: string, input: AttributeMap, keyNames: (table: string) => Promise<string[]>): Promise<string[] | undefined> {
  const sources: [unknown, unknown][] = [];
  if (operation === 'PutItem') sources.push([input.TableName, input.Item]);
  else if (operation === 'UpdateItem' || operation === 'DeleteItem') sources.push([input.TableName, input.Key]);
  else if (operation === 'BatchWriteItem') {
    for (const [tableName, requests] of Object.entries((input.RequestItems ?? {}) as Record<string, unknown>)) {
      if (!Array.isArray(requests)) return undefined;
      for (const request of requests as AttributeMap[]) {
        const put = request?.PutRequest as AttributeMap | undefined;
        const del = request?.DeleteRequest as AttributeMap | undefined;
        sources.push([tableName, put ? put.Item : del?.Key]);
      }
    }
  } else if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    if (!Array.isArray(input.TransactItems)) return undefined;
    for (const item of input.TransactItems as AttributeMap[]) {
      const [kind] = ['ConditionCheck', 'Put', 'Update', 'Delete', 'Get'].filter((k) => item?.[k]);
      const body = kind ? (item[kind] as AttributeMap) : undefined;
      sources.push([body?.TableName, kind === 'Put' ? body?.Item : body?.Key]);
    }
  } else return undefined;

  const ids: string[] = [];
  for (const [tableName, attributes] of sources) {
    if (typeof tableName !== 'string' || !attributes || typeof attributes !== 'object') return undefined;
    let names: string[];
    try {
      names = await keyNames(tableName);
    } catch {
      return undefined;
    }
    const id = itemLockId(tableName, names, attributes as AttributeMap);
    if (!id) return undefined;
    ids.push(id);
  }
  return ids;
}
