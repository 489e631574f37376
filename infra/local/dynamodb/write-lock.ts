/**
 * One writer at a time: every write that reaches the local engine (single-item writes, batches,
 * transactions, the TTL sweeper) runs inside this lock, so a transaction's checks and its writes
 * cannot interleave with another write.
 */
export class WriteLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
