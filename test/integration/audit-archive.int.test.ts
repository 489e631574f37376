import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchKey, batchPrefix, isTamperRecord, type ArchiveBatch } from '../../functions/lib/audit/archive-chain.js';
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
 * passes, the bucket refuses a delete and an overwrite, an entry altered on disk is named, and an
 * entry changed or removed in the table itself is reported from its tamper records.
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
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: userPoolClientId,
      AuthParameters: { USERNAME: 'provider@demo.tidewell.local', PASSWORD: DEMO_PASSWORD },
    }),
  );
  token = out.AuthenticationResult!.IdToken!;
  table = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: runtime.endpoints.dynamodb, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );
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
  return (await tableAuditItems()).map((i) => String(i.auditId)).sort();
}

async function tableAuditItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
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
    items.push(...(page.Items ?? []));
    from = page.LastEvaluatedKey;
  } while (from);
  return items;
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
    expect(await eventually('every audit entry of the table in the archive', archivedIds, (ids) => ids.length >= inTable.length)).toEqual(
      expect.arrayContaining(inTable),
    );
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
    await expect(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
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

  it('reports a table entry changed or removed after it was written, from the tamper records the archive chained', async () => {
    const [changed, removed] = (await tableAuditItems()).slice(0, 2);
    const key = (item: Record<string, unknown>) => ({ practiceId: runtime.endpoints.practiceId, sk: item.sk });
    // Anyone with table write access (a Lambda role) rewrites who looked, then drops another entry.
    await table.send(
      new UpdateCommand({
        TableName: runtime.endpoints.tableName,
        Key: key(changed),
        UpdateExpression: 'SET actorEmail = :e',
        ExpressionAttributeValues: { ':e': 'someone-else@demo.tidewell.local' },
      }),
    );
    await table.send(new DeleteCommand({ TableName: runtime.endpoints.tableName, Key: key(removed) }));

    const tamper = await eventually(
      'both alterations chained into the archive',
      async () =>
        (await archivedBatches()).flatMap((b) => b.entries.map((e, index) => ({ seq: b.seq, index, item: e.item })).filter((e) => isTamperRecord(e.item))),
      (found) => found.length >= 2,
    );
    expect(tamper.map((t) => [t.item.tamper, t.item.auditId])).toEqual([
      ['changed', changed.auditId],
      ['removed', removed.auditId],
    ]);
    // The archive keeps what the entries said before.
    expect(tamper[0].item).toMatchObject({ before: { actorEmail: changed.actorEmail }, after: { actorEmail: 'someone-else@demo.tidewell.local' } });
    expect(tamper[1].item).toMatchObject({ before: { auditId: removed.auditId, actorEmail: removed.actorEmail } });

    // The earlier test broke the chain on disk; from the tamper records' batch on it holds, and the finding still fails the run.
    const { code, out, err } = await verify('--from', String(tamper[0].seq));
    expect(out).toMatch(/chain verified/);
    expect(code).toBe(1);
    expect(err).toContain('2 audit entries were changed or removed in the table after being written');
    expect(err).toContain(`entry ${String(changed.auditId)} written ${String(changed.at)} changed at `);
    expect(err).toContain(
      `(tamper record in batch ${tamper[0].seq}, position ${tamper[0].index + 1}): actorEmail: "${String(changed.actorEmail)}" → "someone-else@demo.tidewell.local"`,
    );
    expect(err).toContain(`entry ${String(removed.auditId)} written ${String(removed.at)} removed at`);
  });
});
