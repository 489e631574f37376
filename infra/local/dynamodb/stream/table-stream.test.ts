import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamSubscription } from '../../../../functions/lib/table/stream.js';
import { LocalTableStream } from './table-stream.js';
import type { ItemChange } from './stream-record.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function newStream() {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-stream-unit-'));
  dirs.push(dir);
  const file = join(dir, 'stream-dead-letters.jsonl');
  return { stream: new LocalTableStream({ region: 'us-east-1', deadLetterFile: file, retryDelayMs: () => 1 }), file };
}

const subscription = (over: Partial<StreamSubscription> = {}): StreamSubscription => ({
  name: 'test-consumer',
  entry: 'unused.ts',
  batchSize: 10,
  bisectBatchOnError: true,
  retryAttempts: 2,
  maxRecordAgeSeconds: 3600,
  reportBatchItemFailures: true,
  filters: [],
  ...over,
});

const put = (sk: string, partition = 'p1', extra: Record<string, unknown> = {}): ItemChange => ({
  tableName: 't',
  partition,
  keys: { practiceId: { S: partition }, sk: { S: sk } },
  newImage: { practiceId: { S: partition }, sk: { S: sk }, ...extra },
});

const sks = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb?.Keys?.sk?.S);

describe('local table stream', () => {
  it('names inserts, modifies and removes, skips writes that change nothing, and numbers records in commit order', async () => {
    const { stream } = newStream();
    const seen: DynamoDBRecord[] = [];
    stream.subscribe({ tableName: 't', subscription: subscription(), invoke: async (e) => void seen.push(...e.Records) });
    const item = put('a', 'p1', { n: { N: '1' } }).newImage!;
    stream.publish([
      put('a', 'p1', { n: { N: '1' } }),
      { ...put('a'), oldImage: item, newImage: { ...item, n: { N: '2' } } },
      // The same item with its attributes in another order: nothing changed, no record.
      { ...put('a'), oldImage: Object.fromEntries(Object.entries({ ...item, n: { N: '2' } }).reverse()), newImage: { ...item, n: { N: '2' } } },
      { ...put('a'), oldImage: item, newImage: undefined },
    ]);
    await stream.idle();
    expect(seen.map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(seen[1].dynamodb).toMatchObject({ StreamViewType: 'NEW_AND_OLD_IMAGES', OldImage: { n: { N: '1' } }, NewImage: { n: { N: '2' } } });
    const sequence = seen.map((r) => BigInt(r.dynamodb!.SequenceNumber!));
    expect(sequence[0] < sequence[1] && sequence[1] < sequence[2]).toBe(true);
  });

  it('keeps one partition in order while a failing batch is retried, and does not hold up another partition', async () => {
    const { stream } = newStream();
    const calls: string[][] = [];
    let failures = 2;
    stream.subscribe({
      tableName: 't',
      subscription: subscription({ batchSize: 1 }),
      invoke: async (e) => {
        calls.push(sks(e) as string[]);
        if (sks(e)[0] === 'a1' && failures-- > 0) throw new Error('boom');
      },
    });
    stream.publish([put('a1', 'A'), put('a2', 'A'), put('b1', 'B')]);
    await stream.idle();
    const a = calls.filter(([sk]) => sk.startsWith('a')).map(([sk]) => sk);
    expect(a).toEqual(['a1', 'a1', 'a1', 'a2']);
    expect(calls.findIndex(([sk]) => sk === 'b1')).toBeLessThan(calls.length - 1);
  });

  it('bisects a failing batch until the bad record stands alone, then dead-letters only it after the retries', async () => {
    const { stream, file } = newStream();
    const delivered: string[] = [];
    let invocations = 0;
    stream.subscribe({
      tableName: 't',
      subscription: subscription({ reportBatchItemFailures: false }),
      invoke: async (e) => {
        invocations++;
        if (sks(e).includes('bad')) throw new Error('cannot take bad');
        delivered.push(...(sks(e) as string[]));
      },
    });
    stream.publish(['r1', 'r2', 'bad', 'r4'].map((sk) => put(sk)));
    await stream.idle();
    expect(delivered).toEqual(['r1', 'r2', 'r4']);
    const [letter] = stream.deadLetters();
    expect(letter).toMatchObject({
      consumer: 'test-consumer',
      condition: 'RetryAttemptsExhausted',
      batchSize: 1,
      approximateInvokeCount: 3,
      error: 'Error: cannot take bad',
    });
    expect(letter.records).toEqual([{ eventName: 'INSERT', sequenceNumber: expect.any(String), keys: { practiceId: { S: 'p1' }, sk: { S: 'bad' } } }]);
    expect(invocations).toBeGreaterThan(4);
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([letter]);
    // A restart reads the list back.
    expect(new LocalTableStream({ region: 'us-east-1', deadLetterFile: file }).deadLetters()).toEqual([letter]);
  });

  it('retries from the first record a partial batch response names, not the records before it', async () => {
    const { stream } = newStream();
    const batches: string[][] = [];
    stream.subscribe({
      tableName: 't',
      subscription: subscription(),
      invoke: async (e) => {
        batches.push(sks(e) as string[]);
        const failed = batches.length === 1 ? e.Records[1] : undefined;
        return { batchItemFailures: failed ? [{ itemIdentifier: failed.dynamodb!.SequenceNumber! }] : [] };
      },
    });
    stream.publish(['x1', 'x2', 'x3'].map((sk) => put(sk)));
    await stream.idle();
    expect(batches).toEqual([
      ['x1', 'x2', 'x3'],
      ['x2', 'x3'],
    ]);
  });

  it("passes a consumer only the records its filter accepts, and records nothing while no one reads the table's stream", async () => {
    const { stream } = newStream();
    const seen: string[] = [];
    expect(stream.wants('t')).toBe(false);
    stream.publish([put('early')]);
    stream.subscribe({
      tableName: 't',
      subscription: subscription({ filters: [{ dynamodb: { NewImage: { entityType: { S: ['NOTIFICATION'] } } } }] }),
      invoke: async (e) => void seen.push(...(sks(e) as string[])),
    });
    expect(stream.wants('t')).toBe(true);
    expect(stream.wants('other')).toBe(false);
    stream.publish([put('n1', 'p1', { entityType: { S: 'NOTIFICATION' } }), put('p1', 'p1', { entityType: { S: 'PATIENT' } })]);
    await stream.idle();
    expect(seen).toEqual(['n1']);
  });

  it('tells which puts could reach a consumer, so the images of the others are never read', () => {
    const { stream } = newStream();
    stream.subscribe({
      tableName: 't',
      subscription: subscription({ filters: [{ eventName: ['INSERT'], dynamodb: { NewImage: { entityType: { S: ['NOTIFICATION'] } } } }] }),
      invoke: async () => undefined,
    });
    expect(stream.mayDeliverPut(put('n1', 'p1', { entityType: { S: 'NOTIFICATION' } }))).toBe(true);
    expect(stream.mayDeliverPut(put('a1', 'p1', { entityType: { S: 'AUDIT' } }))).toBe(false);
    expect(stream.mayDeliverPut({ ...put('n2', 'p1', { entityType: { S: 'NOTIFICATION' } }), tableName: 'other' })).toBe(false);
    // A consumer that filters on the old image could want any put.
    stream.subscribe({
      tableName: 't',
      subscription: subscription({ filters: [{ dynamodb: { OldImage: { entityType: { S: ['PATIENT'] } } } }] }),
      invoke: async () => undefined,
    });
    expect(stream.mayDeliverPut(put('a2', 'p1', { entityType: { S: 'AUDIT' } }))).toBe(true);
  });
});
