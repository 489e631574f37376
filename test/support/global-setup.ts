import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalRuntime, type LocalOutputs, type LocalRuntime } from '../../infra/local/runtime.js';

declare module 'vitest' {
  export interface ProvidedContext {
    localOutputs: LocalOutputs;
    localEndpoints: LocalRuntime['endpoints'];
  }
}

/** One seeded local runtime (temp folder, free port, no web) for every integration file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.TIDEWELL_LOG ??= 'silent';
  // Small batches: the practice export of the demo practice takes several, so a resume has batches to skip.
  process.env.FHIR_BULK_BATCH_SIZE ??= '4';
  // A setting minute of the critical lab escalation lasts one second, so "after 2 minutes" is seen in seconds.
  process.env.LAB_REVIEW_MINUTE_MS ??= '1000';
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-int-'));
  const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true, ttlSweepIntervalMs: 250 });
  project.provide('localOutputs', runtime.outputs);
  project.provide('localEndpoints', runtime.endpoints);
  return async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
