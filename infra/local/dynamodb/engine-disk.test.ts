import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BatchWriteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { useScratchTable } from './scratch-table.js';

const TABLE = 'tidewell-disk-test';
const ITEMS = 20_000;
const VALUE_BYTES = 2_000;

function folderBytes(path: string): number {
  return readdirSync(path).reduce((sum, name) => sum + statSync(join(path, name)).size, 0);
}

// A practice's table is written and read at once all day: reads between writes must not keep the
// engine's superseded files on disk, or a long-running local stack fills the disk.
describe('the local table on disk', () => {
  const scratch = useScratchTable(TABLE);

  it('stays near the size of its data when queries run between bulk writes', { timeout: 120_000 }, async () => {
    for (let i = 0; i < ITEMS; i += 25) {
      const batch = Array.from({ length: 25 }, (_, j) => ({
        PutRequest: {
          Item: {
            practiceId: { S: 'prc_disk' },
            sk: { S: `ITEM#${String(i + j).padStart(6, '0')}` },
            // Random bytes do not compress, so the data's size on disk is known.
            body: { S: randomBytes(VALUE_BYTES / 2).toString('hex') },
          },
        },
      }));
      await scratch().client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: batch } }));
      // A page read, stopped at its Limit as the API's list reads are.
      const page = await scratch().client.send(
        new QueryCommand({
          TableName: TABLE,
          KeyConditionExpression: 'practiceId = :p',
          ExpressionAttributeValues: { ':p': { S: 'prc_disk' } },
          Limit: 5,
        }),
      );
      expect(page.Items).toHaveLength(5);
    }
    const dataBytes = ITEMS * VALUE_BYTES;
    const onDisk = folderBytes(scratch().engineDir);
    console.info(`local table: ${(dataBytes / 1e6).toFixed(0)} MB of data, ${(onDisk / 1e6).toFixed(0)} MB on disk`);
    // What a leak looks like: superseded files kept, about 60 KB per item written (30 times the
    // data). A healthy engine holds the data plus its write-ahead log and the level-0 files not
    // yet compacted, 1.2–1.45 times the data depending on when compaction last ran.
    expect(onDisk).toBeLessThan(dataBytes * 2);
  });
});
