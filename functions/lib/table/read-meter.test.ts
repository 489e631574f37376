import { describe, expect, it } from 'vitest';
import { allowScan, itemsRead, meterTotals, readMeterMiddleware, withReadMeter, writeUnits } from './read-meter.js';

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
});
