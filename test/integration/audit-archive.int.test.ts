import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchKey, batchPrefix, type ArchiveBatch } from '../../functions/lib/audit/archive-chain.js';
import { archiveS3Client } from '../../functions/lib/audit/archive-s3.js';
import { cognitoAdminClient } from '../../infra/local/cognito/provision-pool.js';
import { localArchiveReader, localObjectPath } from '../../infra/local/files/local-archive.js';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.js';
import { runCli } from '../../scripts/practice/cli.js';
import { fakeContext } from '../../scripts/practice/test-support.js';
import { eventually } from '../support/eventually.js';

/**
 * The audit archive end to end on a runtime of its own (the test alters its file store): API calls
 * leave audit entries, the stream archiver chains them into the locked bucket, `audit-verify`
 * passes, the bucket refuses a delete and an overwrite, and an entry altered on disk is named.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-audit-archive-'));
const ROOT = join(import.meta.dirname, '..', '..');
let runtime: LocalRuntime;
let token: string;
let table: DynamoDBDocumentClient;

beforeAll(async () => {
  runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
  const { cognitoEndpoint, region, userPoolClientId } = runtime.outputs;
  const out = await cognitoAdminClient(cognitoEndpoint, region).send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: 'provider@demo.tidewell.local', PASSWORD: DEMO_PASSWORD } }),
  );
  token = out.AuthenticationResult!.IdToken!;
  table = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(path: string) {
  const response = await fetch(`${runtime.outputs.apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
}

async function tableAuditIds(): Promise<string[]> {
  const ids: string[] = [];
  let from: Record<string, unknown> | undefined;
  do {
    const page = await table.send(
      new QueryCommand({
        TableName: runtime.endpoints.tableName,
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :a)',
        ExpressionAttributeValues: { ':p': runtime.endpoints.practiceId, ':a': 'AUDIT#' },
        ConsistentRead: true,
        ExclusiveStartKey: from,
      }),
    );
    ids.push(...(page.Items ?? []).map((i) => String(i.auditId)));
    from = page.LastEvaluatedKey;
  } while (from);
  return ids.sort();
}

const archive = () => localArchiveReader(dataDir, runtime.endpoints.auditArchiveBucket);
async function archivedBatches(): Promise<ArchiveBatch[]> {
  const reader = archive();
  const keys = await reader.list(batchPrefix(runtime.endpoints.practiceId));
  return Promise.all(keys.map(async (k) => JSON.parse((await reader.get(k))!) as ArchiveBatch));
}
const archivedIds = async () => (await archivedBatches()).flatMap((b) => b.entries.map((e) => String(e.item.auditId))).sort();

async function verify(...args: string[]) {
  const ctx = fakeContext(ROOT);
  const code = await runCli(['audit-verify', 'demo', '--local', '--data-dir', dataDir, ...args], ctx);
  return { code, out: ctx.lines.join('\n'), err: ctx.errors.join('\n') };
}

describe('audit archive on the local runtime', () => {
  it('archives every audit entry the API writes, in a chain that verifies', async () => {
    const { items } = (await api('/v1/patients')) as { items: { id: string }[] };
    for (const patient of items.slice(0, 4)) await api(`/v1/patients/${patient.id}`);
    const inTable = await tableAuditIds();
    expect(inTable.length).toBeGreaterThanOrEqual(5);
    expect(await eventually('every audit entry of the table in the archive', archivedIds, (ids) => ids.length >= inTable.length)).toEqual(expect.arrayContaining(inTable));
    // Order: the archive lists the entries as the table committed them (their times never go back).
    const times = (await archivedBatches()).flatMap((b) => b.entries.map((e) => String(e.item.at)));
    expect(times).toEqual([...times].sort());

    const { code, out } = await verify();
    expect(code).toBe(0);
    expect(out).toMatch(/chain verified, \d+ entries in \d+ batches/);
  });

  it('refuses to delete or replace an archived object, as Object Lock in compliance mode does', async () => {
    const key = batchKey(runtime.endpoints.practiceId, 1);
    const path = localObjectPath(dataDir, runtime.endpoints.auditArchiveBucket, key);
    const before = readFileSync(path, 'utf8');
    const s3 = archiveS3Client({ ...process.env, S3_ENDPOINT: runtime.endpoints.s3 });
    const bucket = runtime.endpoints.auditArchiveBucket;
    await expect(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    await expect(s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: '{}' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect((await verify()).code).toBe(0);
  });

  it('names the archived entry that was altered in the file store', async () => {
    const batches = await archivedBatches();
    // Each API call's entries reach the stream after the call answered: one batch per call at least.
    expect(batches.length).toBeGreaterThanOrEqual(3);
    const target = batches[1];
    const index = target.entries.length - 1;
    const altered = target.entries[index].item;
    const path = localObjectPath(dataDir, runtime.endpoints.auditArchiveBucket, batchKey(runtime.endpoints.practiceId, target.seq));
    const batch = JSON.parse(readFileSync(path, 'utf8')) as ArchiveBatch;
    // Someone with the disk (or, deployed, nobody: Object Lock) rewrites who looked at the record.
    batch.entries[index].item.actorEmail = 'someone-else@demo.tidewell.local';
    writeFileSync(path, JSON.stringify(batch));

    const { code, err } = await verify();
    expect(code).toBe(1);
    expect(err).toContain(`chain broken at entry ${String(altered.auditId)} at ${String(altered.at)} (batch ${target.seq}, position ${index + 1})`);
    expect(err).toContain('its content does not match its hash');
    // From a later batch on, the chain still holds.
    expect((await verify('--from', String(target.seq + 1))).code).toBe(0);
  });
});
