import { BatchWriteItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { TTL_ATTRIBUTE } from '../../../functions/lib/table/definition.js';
import { startScratchTable, useScratchTable } from './scratch-table.js';

const TABLE = 'tidewell-ttl-test';

describe('local TTL sweep', () => {
  const scratch = useScratchTable(TABLE);

  it('deletes every expired item across many scan pages and keeps the rest', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const future = past + 3_600;
    const items = Array.from({ length: 340 }, (_, i) => ({
      practiceId: { S: 'prc_ttl' },
      sk: { S: `item#${String(i).padStart(4, '0')}` },
      // Every third item is still alive, spread through the pages.
      [TTL_ATTRIBUTE]: { N: String(i % 3 === 0 ? future : past) },
    }));
    for (let i = 0; i < items.length; i += 25) {
      await scratch().client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }

    const deleted = await scratch().dynamo.sweepTtl();

    const left = await scratch().client.send(new ScanCommand({ TableName: TABLE }));
    expect(deleted).toBe(items.filter((_, i) => i % 3 !== 0).length);
    expect(left.Items?.map((item) => item.sk.S).sort()).toEqual(items.filter((_, i) => i % 3 === 0).map((item) => item.sk.S));
  });

  it('sweeps on its own in bounded stretches that go round the whole table', async () => {
    const crawling = await startScratchTable(TABLE, { ttlSweepIntervalMs: 100, ttlSweepItemsPerTick: 100 });
    const crawlClient = crawling.client;
    try {
      const past = Math.floor(Date.now() / 1000) - 60;
      // Expired items at both ends and in the middle: a crawl that stopped after its first stretch
      // or never came back round to the start would leave some.
      const items = Array.from({ length: 450 }, (_, i) => ({
        practiceId: { S: 'prc_ttl' },
        sk: { S: `crawl#${String(i).padStart(4, '0')}` },
        ...(i % 50 === 0 ? { [TTL_ATTRIBUTE]: { N: String(past) } } : {}),
      }));
      for (let i = 0; i < items.length; i += 25) {
        await crawlClient.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
      }
      const kept = items.filter((_, i) => i % 50 !== 0).map((item) => item.sk.S);
      await vi.waitFor(
        async () => {
          const left = await crawlClient.send(new ScanCommand({ TableName: TABLE }));
          expect(left.Items?.map((item) => item.sk.S).sort()).toEqual(kept);
        },
        { timeout: 20_000, interval: 200 },
      );
    } finally {
      await crawling.stop();
    }
  });
});
