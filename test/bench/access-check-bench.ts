/**
 * `npx tsx test/bench/access-check-bench.ts [-- --users 200 --rounds 20]`
 *
 * What the per-request access check costs: the auth middleware's record lookup on a warm Lambda
 * (cache hit: no table read) and on a miss (one BatchGetItem of USER# and SESSION#), against the
 * local table. Prints p50/p95/p99 in ms. A figure, not a test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { forgetAccessRecord, loadAccessRecord } from '../../functions/lib/auth/access-record.js';
import { identityFromClaims } from '../../functions/lib/auth/access-rule.js';
import { authorizeIdentity } from '../../functions/lib/auth/authorize.js';
import { documentClient, resetDocumentClient } from '../../functions/lib/table/client.js';
import { startLocalDynamo } from '../../infra/local/dynamodb/local-dynamodb.js';
import { latencySummary } from './stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Math.max(1, Number(args[i + 1]) || fallback) : fallback;
};
const USERS = Math.min(option('users', 200), 5_000);
const ROUNDS = Math.min(option('rounds', 20), 1_000);
const PRACTICE = 'prc_bench_access';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-access-bench-'));
  const dynamo = await startLocalDynamo({ dataDir, tableName: 'tidewell-bench', ttlSweepIntervalMs: 60_000, onError: () => undefined });
  Object.assign(process.env, { TABLE_NAME: 'tidewell-bench', PRACTICE_ID: PRACTICE, DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_REGION: 'us-east-1' });
  resetDocumentClient();
  try {
    const subs = Array.from({ length: USERS }, (_, i) => `user-${i}`);
    for (const sub of subs) {
      await documentClient().send(
        new PutCommand({
          TableName: 'tidewell-bench',
          Item: { practiceId: PRACTICE, sk: `USER#${sub}`, userId: sub, permissionGroup: 'provider', userStatus: 'active' },
        }),
      );
    }
    const identities = subs.map((sub) => identityFromClaims({ sub, 'custom:practiceId': PRACTICE, 'cognito:groups': '[provider]', auth_time: '1700000000' })!);

    const misses: number[] = [];
    const hits: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const identity of identities) {
        forgetAccessRecord(PRACTICE, identity.sub);
        let t0 = performance.now();
        await authorizeIdentity(identity, PRACTICE);
        misses.push(performance.now() - t0);
        t0 = performance.now();
        await authorizeIdentity(identity, PRACTICE);
        hits.push(performance.now() - t0);
      }
    }
    await loadAccessRecord(PRACTICE, subs[0]);
    const line = (name: string, values: number[]) => {
      const s = latencySummary(values);
      console.log(
        `${name.padEnd(48)}${String(s.count).padStart(7)}${s.p50.toFixed(3).padStart(10)}${s.p95.toFixed(3).padStart(10)}${s.p99.toFixed(3).padStart(10)}`,
      );
    };
    console.log(`Access check: ${USERS} users x ${ROUNDS} rounds`);
    console.log(`${'case'.padEnd(48)}${'n'.padStart(7)}${'p50 ms'.padStart(10)}${'p95 ms'.padStart(10)}${'p99 ms'.padStart(10)}`);
    line('warm instance (cache hit, no table read)', hits);
    line('cache miss (one BatchGetItem, 2 keys)', misses);
  } finally {
    await dynamo.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
