import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { HELP, runCli } from './cli.js';
import { COVE, fakeContext, HARBOR, practiceRoot } from './test-support.js';

const cfn = mockClient(CloudFormationClient);
const ddb = mockClient(DynamoDBDocumentClient);

let stacks: Map<string, Stack>;

function stack(name: string, outputs: Record<string, string> = {}): Stack {
  return {
    StackName: name,
    StackStatus: 'UPDATE_COMPLETE',
    StackId: `arn:aws:cloudformation:us-east-1:111122223333:stack/${name}/1`,
    CreationTime: new Date('2026-11-01T00:00:00Z'),
    Tags: [{ Key: 'tidewell:version', Value: 'abc1234@2026-12-01T10:00:00Z' }],
    Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
  };
}

function deployed(slug: string): void {
  stacks.set(`Tidewell-${slug}-data`, stack(`Tidewell-${slug}-data`, { userPoolId: `us-east-1_${slug}`, tableName: `${slug}-table` }));
  stacks.set(`Tidewell-${slug}-app`, stack(`Tidewell-${slug}-app`));
}

beforeEach(() => {
  cfn.reset();
  ddb.reset();
  stacks = new Map();
  cfn.on(DescribeStacksCommand).callsFake((input: { StackName: string }) => {
    const s = stacks.get(input.StackName);
    if (!s) throw Object.assign(new Error(`Stack with id ${input.StackName} does not exist`), { name: 'ValidationError' });
    return { Stacks: [s] };
  });
  ddb.on(GetCommand).callsFake(() => new Promise((done) => setImmediate(() => done({}))));
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

const markers = () =>
  ddb
    .commandCalls(PutCommand)
    .map((c) => c.args[0].input)
    .filter((p) => p.Item?.sk === 'CALENDAR_KEYS#PROVIDER' || p.Item?.sk === 'CONTACTS#NUMBER_INDEX')
    .map((p) => `${p.TableName} ${String(p.Item?.practiceId)} ${String(p.Item?.sk)}`)
    .sort();

describe('practice backfill', () => {
  it("writes each deployed practice's markers into its own table, side by side", async () => {
    deployed('harbor');
    deployed('cove');
    const ctx = fakeContext(practiceRoot(HARBOR, COVE));

    expect(await runCli(['backfill', '--all', '--concurrency', '2'], ctx)).toBe(0);

    expect(markers()).toEqual([
      'cove-table prc_cove CALENDAR_KEYS#PROVIDER',
      'cove-table prc_cove CONTACTS#NUMBER_INDEX',
      'harbor-table prc_harbor CALENDAR_KEYS#PROVIDER',
      'harbor-table prc_harbor CONTACTS#NUMBER_INDEX',
    ]);
    expect(ctx.regions.sort()).toEqual(['us-east-1', 'us-west-2']);
    expect(ctx.lines).toContain('[harbor] page keys in harbor-table: no item lacked its keys; every marker is written');
    expect(ctx.lines.at(-1)).toBe('2 practice(s) have their page keys.');
  });

  it('writes nothing again where the markers are already there', async () => {
    deployed('harbor');
    ddb.on(GetCommand).resolves({ Item: { indexed: true, names: true, lastInboundKept: true, listed: true, notesListed: true } });
    const ctx = fakeContext(practiceRoot(HARBOR));

    expect(await runCli(['backfill', 'harbor'], ctx)).toBe(0);

    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('refuses a practice whose app stack is not deployed, and backfills the others', async () => {
    deployed('harbor');
    stacks.set('Tidewell-cove-data', stack('Tidewell-cove-data', { userPoolId: 'us-west-2_cove', tableName: 'cove-table' }));
    const ctx = fakeContext(practiceRoot(HARBOR, COVE));

    expect(await runCli(['backfill', '--all'], ctx)).toBe(1);

    expect(ctx.lines).toContain(
      '[cove] FAILED: Tidewell-cove-app is not deployed in us-west-2; deploy the practice instead (npm run practice -- deploy cove).',
    );
    expect(markers().every((m) => m.startsWith('harbor-table'))).toBe(true);
    expect(markers()).toHaveLength(2);
    expect(ctx.lines.at(-1)).toBe('1 of 2 practice(s) failed.');
  });

  it('--dry-run names what it would write and calls no AWS; --help explains it', async () => {
    const ctx = fakeContext(practiceRoot(HARBOR, COVE));

    expect(await runCli(['backfill', '--all', '--dry-run'], ctx)).toBe(0);
    expect(await runCli(['backfill', '--help'], ctx)).toBe(0);

    expect(cfn.calls()).toHaveLength(0);
    expect(ddb.calls()).toHaveLength(0);
    expect(ctx.lines[0]).toBe('Would write, 1 practice(s) at a time (dry run, AWS is not called):');
    expect(ctx.lines[1]).toMatch(
      /^ {2}cove \(Cove Clinic; us-west-2\): the table named by Tidewell-cove-data, once Tidewell-cove-app is deployed; page keys: /,
    );
    expect(ctx.lines[2]).toMatch(/^ {2}harbor \(Harbor Family Medicine; us-east-1\): /);
    expect(ctx.lines[3]).toBe(HELP.backfill);
    expect(HELP.main).toContain('backfill <slug> | --all');
  });

  it('needs a practice or --all', async () => {
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['backfill'], ctx)).toBe(2);
    expect(ctx.errors).toEqual(['Which practice? npm run practice -- backfill <slug>, or --all.']);
  });
});
