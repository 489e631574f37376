import { describe, expect, it } from 'vitest';
import { allowScan, itemsRead, readMeterMiddleware, withReadMeter } from './read-meter.js';

const send = (commandName: string, output: object) => readMeterMiddleware(async () => ({ output }), { commandName })({ input: {} });

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
});
