import { Worker } from 'node:worker_threads';
import type { EngineThreadMessage } from './engine-worker.js';

export interface EngineThread {
  port: number;
  /** Lets the engine finish what it was asked, close its store, and ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts the engine (dynalite over `path`) in a worker thread. The thread loads the TypeScript
 * entry through tsx's loader, which a worker does not inherit from the thread that starts it.
 */
export async function startEngineThread(path: string, onError: (error: unknown) => void): Promise<EngineThread> {
  const entry = new URL('./engine-worker.ts', import.meta.url).href;
  const worker = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, {
    eval: true,
    workerData: { path },
  });
  const messages = new Set<(message: EngineThreadMessage) => void>();
  worker.on('message', (message: EngineThreadMessage) => messages.forEach((listener) => listener(message)));
  const next = <K extends EngineThreadMessage['kind']>(kind: K) =>
    new Promise<Extract<EngineThreadMessage, { kind: K }>>((resolve, reject) => {
      const failed = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
      const exited = (code: number) => failed(new Error(`The local DynamoDB engine stopped (exit code ${code})`));
      const listener = (message: EngineThreadMessage) => {
        if (message.kind !== kind) return;
        messages.delete(listener);
        worker.off('error', failed).off('exit', exited);
        resolve(message as Extract<EngineThreadMessage, { kind: K }>);
      };
      messages.add(listener);
      worker.once('error', failed).once('exit', exited);
    });

  const { port } = await next('listening');
  let stopping = false;
  let reported = false;
  worker.on('error', (error) => {
    reported = true;
    onError(error);
  });
  // A thread that ends without an error event (process.exit in a dependency, an out-of-memory
  // abort) would otherwise leave every later request waiting on a port nobody answers; one that
  // ended on an error has been reported once already.
  worker.on('exit', (code) => {
    if (!stopping && !reported) onError(new Error(`The local DynamoDB engine stopped (exit code ${code})`));
  });
  return {
    port,
    async stop() {
      stopping = true;
      const closed = next('closed');
      worker.postMessage('close');
      const { error } = await closed;
      await worker.terminate();
      if (error) throw new Error(error);
    },
  };
}
