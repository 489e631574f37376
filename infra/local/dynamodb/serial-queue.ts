/**
 * Runs the work handed to it one piece at a time, each after the one before has settled, whether
 * it succeeded or failed. The TTL sweeper keeps one, so a sweep and a timed crawl never run at once.
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
