/**
 * Runs the work handed to it one piece at a time, each after the one before has settled, whether
 * it succeeded or failed. The local engine's write lock is one: every write that reaches the engine
 * (single-item writes, batches, transactions, the TTL sweeper) runs inside it, so a transaction's
 * checks and its writes cannot interleave with another write. The TTL sweeper keeps another, so a
 * sweep and a timed crawl never run at once.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once everything queued so far has. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
