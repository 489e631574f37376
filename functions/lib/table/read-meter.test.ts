import { describe, expect, it } from 'vitest';
import { allowScan, indexWriteUnits, itemsRead, meterTotals, readMeterMiddleware, roundTrips, tableWaitMs, withReadMeter, writeUnits } from './read-meter.js';

/** A table call that takes `ms` to answer. */
const slow = (ms: number) =>
  // eslint-disable-next-line tidewell/no-fixed-sleep -- a table call that takes `ms` to answer, not a wait for something
  readMeterMiddleware(() => new Promise((done) => setTimeout(() => done({ output: {} }), ms)), { commandName: 'GetCommand' })({ input: {} });

const send = (commandName: string, output: object, input: object = {}) => readMeterMiddleware(async () => ({ output }), { commandName })({ input });

describe('read meter', () => {
  it('counts what each read of one request evaluated: a Query its scanned items, a GetItem its item, a batch each item', async () => {
    const total = await withReadMeter(async () => {
      await send('QueryCommand', { Items: [{}], ScannedCount: 40 });
      await send('GetCommand', { Item: {} });
      await send('GetCommand', {});
      await send('BatchGetCommand', { Responses: { t: [{}, {}, {}] } });
      await send('TransactGetCommand', { Responses: [{ Item: {} }, {}] });
      return itemsRead();
    });
    expect(total).toBe(45);
  });

  it('keeps concurrent requests apart', async () => {
    const [a, b] = await Promise.all([
      withReadMeter(async () => (await send('QueryCommand', { ScannedCount: 3 }), itemsRead())),
      withReadMeter(async () => (await send('QueryCommand', { ScannedCount: 5 }), itemsRead())),
    ]);
    expect([a, b]).toEqual([3, 5]);
  });

  it('refuses a Scan in a request and allows it in maintenance work, whose reads still count', async () => {
    await withReadMeter(async () => {
      await expect(send('ScanCommand', { ScannedCount: 10 })).rejects.toThrow('A Scan reads the whole table');
      await allowScan(() => send('ScanCommand', { ScannedCount: 10 }));
      expect(itemsRead()).toBe(10);
    });
  });

  it('counts write units as DynamoDB bills them: each started KB of a put, one per update or delete, twice in a transaction', async () => {
    const before = meterTotals().written;
    const big = { text: 'x'.repeat(2500) };
    const units = await withReadMeter(async () => {
      // The document client's commands reach the middleware under the operation's name.
      await send('PutItemCommand', {}, { Item: { id: 'a' } });
      await send('PutItemCommand', {}, { Item: big });
      await send('UpdateItemCommand', {});
      await send('DeleteItemCommand', {});
      await send('BatchWriteItemCommand', {}, { RequestItems: { t: [{ PutRequest: { Item: {} } }, { PutRequest: { Item: big } }, { DeleteRequest: {} }] } });
      await send('TransactWriteItemsCommand', {}, { TransactItems: [{ Put: { Item: {} } }, { Update: {} }] });
      await send('GetItemCommand', { Item: {} });
      return writeUnits();
    });
    expect(units).toBe(1 + 3 + 1 + 1 + (1 + 3 + 1) + 2 * 2);
    expect(meterTotals().written - before).toBe(units);
  });

  it('counts what the writes cost again in the indexes: a put of an item keyed into one, an update that moves or drops its keys, nothing for a failed condition', async () => {
    const before = meterTotals().indexWritten;
    const note = { practiceId: 'p', sk: 'NOTE#1', gsi1pk: 'NOTES#pat', gsi1sk: 't#1', gsi2pk: 'CHARTNOTES#p#pat', gsi2sk: 't#1', text: 'x'.repeat(1500) };
    const plain = { practiceId: 'p', sk: 'PRACTICE' };
    const refused = readMeterMiddleware(
      async () => {
        throw new Error('ConditionalCheckFailedException');
      },
      { commandName: 'PutCommand' },
    );
    const units = await withReadMeter(async () => {
      await send('PutCommand', {}, { Item: note }); // two indexes × 2 KB
      await send('PutCommand', {}, { Item: plain });
      await send('PutCommand', {}, { Item: { ...plain, gsi1pk: 'only the partition key' } });
      await send('UpdateCommand', {}, { UpdateExpression: 'SET #s = :s, gsi2pk = :pk, gsi2sk = :sk', ExpressionAttributeNames: { '#s': 'status' } }); // moved: 2
      await send('UpdateCommand', {}, { UpdateExpression: 'SET #a = :a REMOVE #k', ExpressionAttributeNames: { '#a': 'text', '#k': 'gsi1pk' } }); // dropped: 1
      await send('UpdateCommand', {}, { UpdateExpression: 'SET #s = :s', ExpressionAttributeNames: { '#s': 'status' } });
      await send('BatchWriteCommand', {}, { RequestItems: { t: [{ PutRequest: { Item: note } }, { PutRequest: { Item: plain } }] } });
      await send('TransactWriteCommand', {}, { TransactItems: [{ Put: { Item: note } }, { Update: { UpdateExpression: 'SET gsi1sk = :sk' } }] });
      await expect(refused({ input: { Item: note } })).rejects.toThrow('ConditionalCheckFailed');
      expect(writeUnits()).toBeGreaterThan(0);
      return indexWriteUnits();
    });
    expect(units).toBe(4 + 0 + 0 + 2 + 1 + 0 + 4 + (4 + 2));
    expect(meterTotals().indexWritten - before).toBe(units);
  });

  it('counts the calls a request waited on one after another, not the calls it sent side by side', async () => {
    const refused = readMeterMiddleware(
      async () => {
        throw new Error('ConditionalCheckFailedException');
      },
      { commandName: 'PutCommand' },
    );
    const [together, chained, overlapping] = await Promise.all([
      withReadMeter(async () => (await Promise.all([slow(5), slow(5), slow(5)]), await slow(5), roundTrips())),
      withReadMeter(async () => (await slow(1), await slow(1), await refused({ input: {} }).catch(() => undefined), await slow(1), roundTrips())),
      // The second starts while the first is out: it waits on nothing the first answered.
      withReadMeter(async () => {
        const first = slow(20);
        await new Promise((done) => setTimeout(done, 5));
        await Promise.all([first, slow(5)]);
        return roundTrips();
      }),
    ]);
    expect([together, chained, overlapping]).toEqual([2, 4, 1]);
  });

  it('times the part of a request with a table call out, calls side by side counted once', async () => {
    // eslint-disable-next-line tidewell/no-fixed-sleep -- the handler's own work between its calls, which is not the table's
    const ownWork = (ms: number) => new Promise((done) => setTimeout(done, ms));
    const started = performance.now();
    const table = await withReadMeter(async () => {
      await Promise.all([slow(40), slow(40), slow(40)]);
      await ownWork(60);
      await slow(20);
      return tableWaitMs();
    });
    const elapsed = performance.now() - started;
    // Three 40 ms calls side by side and one of 20 ms: about 60 ms, not 140, and not the 60 ms between them.
    expect(table).toBeGreaterThanOrEqual(58);
    expect(table).toBeLessThan(elapsed - 55);
  });
});
