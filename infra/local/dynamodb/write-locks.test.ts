import { describe, expect, it } from 'vitest';
import { itemLockId, WriteLocks, writtenItems } from './write-locks.js';

/** A piece of work that runs until the test lets it finish, and says when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const released = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      log.push(`${name} start`);
      await released;
      log.push(`${name} end`);
      return name;
    },
    finish,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the local engine write locks', () => {
  it('lets a write to one item go ahead while a write to another item is still running', async () => {
    const locks = new WriteLocks();
    const log: string[] = [];
    const slow = held(log, 'A');
    const first = locks.items(['t\u0000a'], slow.work);
    await expect(locks.items(['t\u0000b'], async () => 'B')).resolves.toBe('B');
    expect(log).toEqual(['A start']);
    slow.finish();
    await expect(first).resolves.toBe('A');
  });

  it('runs writes to one item one after another, in the order they arrived, a failed one included', async () => {
    const locks = new WriteLocks();
    const log: string[] = [];
    const one = held(log, 'one');
    const results = [
      locks.items(['t\u0000a'], one.work),
      locks.items(['t\u0000a'], async () => {
        log.push('two');
        throw new Error('refused');
      }),
      locks.items(['t\u0000a'], async () => log.push('three')),
    ];
    await turn();
    expect(log).toEqual(['one start']);
    one.finish();
    await Promise.allSettled(results);
    expect(log).toEqual(['one start', 'one end', 'two', 'three']);
    await expect(results[1]).rejects.toThrow('refused');
  });

  it('makes a write that names two items wait for both, and later writes to either wait for it', async () => {
    const locks = new WriteLocks();
    const log: string[] = [];
    const [a, b, pair] = [held(log, 'A'), held(log, 'B'), held(log, 'A+B')];
    const running = [locks.items(['a'], a.work), locks.items(['b'], b.work), locks.items(['a', 'b'], pair.work)];
    const later = locks.items(['b'], async () => log.push('B again'));
    a.finish();
    await turn();
    expect(log).toEqual(['A start', 'B start', 'A end']);
    b.finish();
    await turn();
    expect(log).toEqual(['A start', 'B start', 'A end', 'B end', 'A+B start']);
    pair.finish();
    await Promise.all([...running, later]);
    expect(log.slice(-2)).toEqual(['A+B end', 'B again']);
  });

  it('runs a table-wide write alone: after every write before it, before every write after it', async () => {
    const locks = new WriteLocks();
    const log: string[] = [];
    const before = held(log, 'item');
    const whole = held(log, 'table');
    const running = [locks.items(['a'], before.work), locks.all(whole.work)];
    const after = locks.items(['z'], async () => log.push('other item'));
    let idle = false;
    void locks.idle().then(() => (idle = true));
    await turn();
    expect(log).toEqual(['item start']);
    before.finish();
    await turn();
    expect(log).toEqual(['item start', 'item end', 'table start']);
    whole.finish();
    await Promise.all([...running, after]);
    expect(log.slice(-2)).toEqual(['table end', 'other item']);
    await turn();
    expect(idle).toBe(true);
  });
});

describe('the items a write names', () => {
  const keyNames = async (table: string) => {
    if (table !== 'main') throw new Error('ResourceNotFoundException');
    return ['practiceId', 'sk'];
  };
  const id = (sk: string) => itemLockId('main', ['practiceId', 'sk'], { practiceId: { S: 'p' }, sk: { S: sk } });

  it('names an item by its key alone, whatever else the write carries', async () => {
    await expect(
      writtenItems('PutItem', { TableName: 'main', Item: { sk: { S: 'n1' }, body: { S: 'x' }, practiceId: { S: 'p' } } }, keyNames),
    ).resolves.toEqual([id('n1')]);
    await expect(writtenItems('UpdateItem', { TableName: 'main', Key: { practiceId: { S: 'p' }, sk: { S: 'n1' } } }, keyNames)).resolves.toEqual([id('n1')]);
  });

  it('names every item of a batch and of a transaction, condition checks included', async () => {
    const key = (sk: string) => ({ practiceId: { S: 'p' }, sk: { S: sk } });
    await expect(
      writtenItems('BatchWriteItem', { RequestItems: { main: [{ PutRequest: { Item: key('a') } }, { DeleteRequest: { Key: key('b') } }] } }, keyNames),
    ).resolves.toEqual([id('a'), id('b')]);
    await expect(
      writtenItems(
        'TransactWriteItems',
        { TransactItems: [{ ConditionCheck: { TableName: 'main', Key: key('c') } }, { Put: { TableName: 'main', Item: key('d') } }] },
        keyNames,
      ),
    ).resolves.toEqual([id('c'), id('d')]);
  });

  it('names nothing, so the write holds the whole table, when a key or the table cannot be read', async () => {
    await expect(writtenItems('PutItem', { TableName: 'main', Item: { practiceId: { S: 'p' } } }, keyNames)).resolves.toBeUndefined();
    await expect(writtenItems('PutItem', { TableName: 'gone', Item: { practiceId: { S: 'p' }, sk: { S: 'a' } } }, keyNames)).resolves.toBeUndefined();
    await expect(writtenItems('CreateTable', { TableName: 'main' }, keyNames)).resolves.toBeUndefined();
  });
});
