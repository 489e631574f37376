/**
 * A seeded local runtime in a process of its own (see runtime-process.ts): the handlers of a runtime
 * read its table, bucket and stand-ins from the process environment, so a test that needs a
 * practice of its own beside an in-process runtime starts it here.
 */
import type { MfaPolicy } from '../../infra/config/practice-config.js';
import { startLocalRuntime } from '../../infra/local/runtime.js';

const { dataDir, mfa } = JSON.parse(process.argv[2] ?? '{}') as { dataDir: string; mfa?: MfaPolicy };
const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true, ...(mfa ? { mfa } : {}) });
const { dynamodb, tableName, practiceId } = runtime.endpoints;
process.stdout.write(`RUNTIME_OUTPUTS ${JSON.stringify({ ...runtime.outputs, table: { dynamodb, tableName, practiceId } })}\n`);
process.on('SIGTERM', () => {
  void runtime.stop().then(() => process.exit(0));
});
