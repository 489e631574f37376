/**
 * The engine's own thread: dynalite and its LevelDB store, answering on a loopback port. It runs
 * apart from the API's thread as DynamoDB runs apart from a Lambda, so the engine's parsing and
 * storage work takes the machine's other core instead of queueing behind the handlers.
 */
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import { closeEngineIteratorsWhenStreamsEnd } from './engine-iterators.js';

export type EngineThreadMessage = { kind: 'listening'; port: number } | { kind: 'closed'; error?: string };

const port = parentPort!;
const { path } = workerData as { path: string };

closeEngineIteratorsWhenStreamsEnd();
const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (error) => {
  throw error;
});
server.listen(0, '127.0.0.1', () => port.postMessage({ kind: 'listening', port: (server.address() as AddressInfo).port } satisfies EngineThreadMessage));

port.on('message', (message: unknown) => {
  if (message !== 'close') return;
  server.closeAllConnections?.();
  // dynalite closes its store once its server has closed, so the files are whole when this answers.
  server.close((error) => {
    port.postMessage({ kind: 'closed', error: error ? String(error) : undefined } satisfies EngineThreadMessage);
    port.close();
  });
});
