import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamSubscription } from '../../../../functions/lib/table/stream.js';
import { matchesAnyFilter } from './event-filter.js';
import { streamRecord, type ItemChange } from './stream-record.js';

/** An event source mapping: one worker reading one table's stream. */
export interface StreamConsumer {
  tableName: string;
  subscription: StreamSubscription;
  invoke(event: DynamoDBStreamEvent): Promise<unknown>;
}

/** What the on-failure destination receives: where the lost records were, never their contents. */
export interface StreamDeadLetter {
  timestamp: string;
  consumer: string;
  condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
  approximateInvokeCount: number;
  error: string | null;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  /** Keys only: the items can be read from the table, the list itself carries no patient data. */
  records: { eventName: string; sequenceNumber: string; keys: unknown }[];
}

export interface LocalTableStreamOptions {
  region: string;
  /** JSON lines file that keeps dead letters across restarts. */
  deadLetterFile: string;
  /** Wait before retry n (1-based). */
  retryDelayMs?: (retry: number) => number;
  onError?: (error: unknown) => void;
}

interface Shard {
  records: DynamoDBRecord[];
  running?: Promise<void>;
}

interface Mapping extends StreamConsumer {
  shards: Map<string, Shard>;
}

const STREAM_LABEL = '1970-01-01T00:00:00.000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The table's change stream, which the engine lacks. The write path hands it each committed
 * change holding the item's write lock (so an item's records are numbered in commit order); every subscribed
 * consumer gets the records its filter passes, in order per partition, in batches, with
 * bisect-on-error, partial batch responses and bounded retries, then the dead-letter list.
 * Records committed while no consumer is subscribed are not kept (the LATEST starting position).
 */
export class LocalTableStream {
  private readonly mappings: Mapping[] = [];
  private readonly letters: StreamDeadLetter[] = [];
  private stopped = false;

  constructor(private readonly options: LocalTableStreamOptions) {
    if (existsSync(options.deadLetterFile)) {
      for (const line of readFileSync(options.deadLetterFile, 'utf8').split('\n')) {
        if (line.trim()) this.letters.push(JSON.parse(line) as StreamDeadLetter);
      }
    }
  }

  /** Whether a write to this table needs its images captured. */
  wants(tableName: string): boolean {
    return !this.stopped && this.mappings.some((m) => m.tableName === tableName);
  }

  /**
   * Whether a put of `change.newImage` could reach any consumer, as an insert or as a modify of
   * whatever was there. A record no consumer's filter passes is never delivered, so a write that
   * can only make such records needs no images read (most writes: audit entries, chart items).
   * A filter that looks at the old image cannot be decided before the write, so it always could.
   */
  mayDeliverPut(change: ItemChange): boolean {
    const asInsert = streamRecord({ ...change, oldImage: undefined }, this.options.region, STREAM_LABEL);
    const asModify = streamRecord({ ...change, oldImage: {} }, this.options.region, STREAM_LABEL);
    return this.mappings.some(
      (m) =>
        m.tableName === change.tableName &&
        (JSON.stringify(m.subscription.filters).includes('"OldImage"') ||
          [asInsert, asModify].some((record) => record !== null && matchesAnyFilter(record, m.subscription.filters))),
    );
  }

  /** Called holding the items' write locks, after the engine committed the changes, in commit order. */
  publish(changes: readonly ItemChange[]): void {
    for (const change of changes) {
      const consumers = this.mappings.filter((m) => m.tableName === change.tableName);
      if (!consumers.length) continue;
      const record = streamRecord(change, this.options.region, STREAM_LABEL);
      if (!record) continue;
      for (const mapping of consumers) {
        if (!matchesAnyFilter(record, mapping.subscription.filters)) continue;
        const shard = mapping.shards.get(change.partition) ?? { records: [] };
        mapping.shards.set(change.partition, shard);
        shard.records.push(record);
        this.drain(mapping, shard);
      }
    }
  }

  subscribe(consumer: StreamConsumer): () => void {
    const mapping: Mapping = { ...consumer, shards: new Map() };
    this.mappings.push(mapping);
    return () => {
      const at = this.mappings.indexOf(mapping);
      if (at >= 0) this.mappings.splice(at, 1);
    };
  }

  deadLetters(): readonly StreamDeadLetter[] {
    return this.letters;
  }

  /** Resolves once every record committed so far has been delivered or dead-lettered. */
  async idle(): Promise<void> {
    for (;;) {
      const running = this.mappings.flatMap((m) => [...m.shards.values()].map((s) => s.running).filter(Boolean));
      if (!running.length) return;
      await Promise.all(running);
    }
  }

  /** Stops taking records and waits (briefly) for batches in flight; what is still queued is dropped. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.race([this.idle(), sleep(5_000)]);
    this.mappings.length = 0;
  }

  private drain(mapping: Mapping, shard: Shard): void {
    if (shard.running) return;
    shard.running = (async () => {
      // Off the writer's call stack: the write answers its caller before any consumer runs.
      await new Promise((resolve) => setImmediate(resolve));
      while (shard.records.length && !this.stopped) {
        const { subscription } = mapping;
        const oldest = Date.now() / 1000 - subscription.maxRecordAgeSeconds;
        const tooOld: DynamoDBRecord[] = [];
        while (shard.records.length && (shard.records[0].dynamodb?.ApproximateCreationDateTime ?? 0) < oldest) tooOld.push(shard.records.shift()!);
        if (tooOld.length) this.deadLetter(mapping, tooOld, 'RecordAgeExceeded', 0, null);
        const batch = shard.records.slice(0, subscription.batchSize);
        if (batch.length) await this.deliver(mapping, batch, 0);
        shard.records.splice(0, batch.length);
      }
    })()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        shard.running = undefined;
        if (shard.records.length && !this.stopped) this.drain(mapping, shard);
      });
  }

  private async deliver(mapping: Mapping, batch: DynamoDBRecord[], retriesUsed: number): Promise<void> {
    const { subscription } = mapping;
    let remaining = batch;
    let retries = retriesUsed;
    let invocations = 0;
    while (!this.stopped) {
      let error: string;
      let functionError = false;
      invocations++;
      try {
        const failedAt = firstFailure(await mapping.invoke({ Records: remaining }), remaining, subscription.reportBatchItemFailures);
        if (failedAt < 0) return;
        remaining = remaining.slice(failedAt);
        error = 'The function reported a failed record';
      } catch (e) {
        functionError = true;
        error = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 500) : String(e);
      }
      if (functionError && subscription.bisectBatchOnError && remaining.length > 1) {
        const half = Math.ceil(remaining.length / 2);
        await this.deliver(mapping, remaining.slice(0, half), retries);
        await this.deliver(mapping, remaining.slice(half), retries);
        return;
      }
      if (retries >= subscription.retryAttempts) {
        this.deadLetter(mapping, remaining, 'RetryAttemptsExhausted', invocations, error);
        return;
      }
      retries++;
      await sleep((this.options.retryDelayMs ?? defaultRetryDelay)(retries));
    }
  }

  private deadLetter(mapping: Mapping, records: DynamoDBRecord[], condition: StreamDeadLetter['condition'], invocations: number, error: string | null): void {
    const sequence = (r: DynamoDBRecord) => r.dynamodb?.SequenceNumber ?? '';
    const letter: StreamDeadLetter = {
      timestamp: new Date().toISOString(),
      consumer: mapping.subscription.name,
      condition,
      approximateInvokeCount: invocations,
      error,
      startSequenceNumber: sequence(records[0]),
      endSequenceNumber: sequence(records[records.length - 1]),
      batchSize: records.length,
      records: records.map((r) => ({ eventName: r.eventName ?? '', sequenceNumber: sequence(r), keys: r.dynamodb?.Keys })),
    };
    this.letters.push(letter);
    try {
      mkdirSync(dirname(this.options.deadLetterFile), { recursive: true });
      appendFileSync(this.options.deadLetterFile, `${JSON.stringify(letter)}\n`);
    } catch (e) {
      this.options.onError?.(e);
    }
    this.options.onError?.(`${mapping.subscription.name}: ${records.length} stream record(s) dead-lettered (${condition}); see GET /local/stream/dead-letters`);
  }
}

function defaultRetryDelay(retry: number): number {
  return Math.min(2_000, 50 * 2 ** (retry - 1));
}

/**
 * Index of the first record to retry, or -1 when the batch succeeded. An identifier that names
 * no record of the batch fails the whole batch, as Lambda does.
 */
function firstFailure(result: unknown, batch: DynamoDBRecord[], partial: boolean): number {
  if (!partial) return -1;
  const failures = (result as DynamoDBBatchResponse | undefined)?.batchItemFailures;
  if (!Array.isArray(failures) || failures.length === 0) return -1;
  const positions = failures.map((f) => batch.findIndex((r) => r.dynamodb?.SequenceNumber === f.itemIdentifier));
  return positions.some((p) => p < 0) ? 0 : Math.min(...positions);
}
