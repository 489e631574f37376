import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { AdminAddUserToGroupCommand, AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { COVE, fakeContext, HARBOR, practiceRoot, VERSION, type FakeContext } from './test-support.js';
import { CommandFailed } from './context.js';

const cfn = mockClient(CloudFormationClient);
const cognito = mockClient(CognitoIdentityProviderClient);
const ddb = mockClient(DynamoDBDocumentClient);
const SUB = 'a1b2c3d4-0000-4000-8000-000000000002';

/** CloudFormation as the fake `cdk deploy` leaves it: each deployed stack with its version tag. */
let deployed: Map<string, Stack>;
const events: string[] = [];

function stack(name: string, version: string | null, outputs: Record<string, string> = {}): Stack {
  return {
    StackName: name,
    StackStatus: 'UPDATE_COMPLETE',
    StackId: `arn:aws:cloudformation:us-east-1:111122223333:stack/${name}/1`,
    CreationTime: new Date('2026-11-01T00:00:00Z'),
    Tags: version ? [{ Key: 'tidewell:version', Value: version }] : [],
    Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
  };
}

beforeEach(() => {
  cfn.reset();
  cognito.reset();
  ddb.reset();
  events.length = 0;
  deployed = new Map([
    ['Tidewell-harbor-data', stack('Tidewell-harbor-data', 'old1111@2026-11-20T08:00:00Z', { userPoolId: 'us-east-1_Harbor', tableName: 'harbor-table' })],
    ['Tidewell-harbor-app', stack('Tidewell-harbor-app', 'old1111@2026-11-20T08:00:00Z')],
  ]);
  cfn.on(DescribeStacksCommand).callsFake((input: { StackName: string }) => {
    const s = deployed.get(input.StackName);
    if (!s) throw Object.assign(new Error(`Stack with id ${input.StackName} does not exist`), { name: 'ValidationError' });
    return { Stacks: [s] };
  });
  cognito.on(AdminCreateUserCommand).callsFake(() => {
    events.push('AdminCreateUser');
    return { User: { Attributes: [{ Name: 'sub', Value: SUB }] } };
  });
  cognito.on(AdminAddUserToGroupCommand).resolves({});
  ddb.on(PutCommand).callsFake((input: { Item: { sk: string } }) => {
    events.push(`PutItem ${input.Item.sk}`);
    return {};
  });
  // A new practice's table: no markers and nothing to backfill, so each backfill writes its marker.
  ddb.on(GetCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(UpdateCommand).callsFake((input: { Key: { sk: string } }) => {
    events.push(`UpdateItem ${input.Key.sk}`);
    return {};
  });
});

/** The page-key markers the backfills write into a new practice's table, in order. */
const MARKERS = [
  'PutItem SMSCONV_COUNTS',
  'UpdateItem SMSCONV_COUNTS',
  'PutItem CALENDAR_KEYS#PROVIDER',
  'PutItem CALENDAR_KEYS#PATIENT',
  'PutItem NOTIF_COUNTS',
  'PutItem NOTIF_KEYS#PEOPLE',
  'PutItem NOTIF_KEYS#SMSPAIR',
  'PutItem CALL_COUNTS',
  'UpdateItem CALL_COUNTS',
  'PutItem CALL_KEYS#PATIENT',
  'PutItem CONTACTS#NUMBER_INDEX',
  'UpdateItem FAX_COUNTS',
  'UpdateItem FAX_COUNTS',
  'PutItem NOTE_KEYS#CHART',
];

/** The fake child processes: `cdk deploy` tags the stack, a practice named in `failSynth` fails its synth. */
function fleet(root: string, opts: { failSynth?: string; failBuild?: boolean; dirty?: boolean } = {}): FakeContext {
  return fakeContext(root, {
    dirty: opts.dirty,
    onRun: (command, args) => {
      events.push([command, ...args.slice(0, 3)].join(' '));
      if (opts.failBuild && args[1] === 'build:web') throw new CommandFailed('npm run build:web', 1, ['error TS2345: web/src/app.tsx']);
      if (args[1] === 'synth' && args[3] === `practice=${opts.failSynth}`)
        throw new CommandFailed('npx cdk synth', 1, ['[Error at /Tidewell-cove-app/Api] AwsSolutions-APIG4: The API does not implement authorization.']);
      if (args[1] === 'deploy') {
        const name = args[2];
        deployed.set(name, stack(name, VERSION, name.endsWith('-data') ? { userPoolId: 'us-east-1_New', tableName: `${name}-table` } : {}));
      }
    },
  });
}

describe('practice deploy', () => {
  it('builds once, then per practice synthesizes, checks, deploys data, creates the first admin, deploys app, backfills the page keys, and tags the version', async () => {
    const ctx = fleet(practiceRoot(HARBOR));

    expect(await runCli(['deploy', 'harbor'], ctx)).toBe(0);

    expect(ctx.runs.map((r) => [r.command, ...r.args].join(' '))).toEqual([
      'npm run build:web',
      'npx tsx scripts/practice/check-budgets.ts --shared',
      `npx cdk synth -c practice=harbor -c version=${VERSION} --quiet --output cdk.out/practices/harbor`,
      'npm run check:deploy -- cdk.out/practices/harbor',
      'npx tsx scripts/practice/check-budgets.ts cdk.out/practices/harbor',
      `npx cdk deploy Tidewell-harbor-data --app cdk.out/practices/harbor --exclusively --require-approval never -c practice=harbor -c version=${VERSION}`,
      `npx cdk deploy Tidewell-harbor-app --app cdk.out/practices/harbor --exclusively --require-approval never -c practice=harbor -c version=${VERSION}`,
    ]);
    // The admin is made after the data stack exists and before the app stack is deployed; the
    // page keys after the app stack, whose Lambdas write them on every change.
    expect(events.filter((e) => !e.startsWith('npm') && !e.includes('synth') && !e.includes('tsx'))).toEqual([
      'npx cdk deploy Tidewell-harbor-data',
      'AdminCreateUser',
      `PutItem USER#${SUB}`,
      'PutItem PRACTICE',
      'npx cdk deploy Tidewell-harbor-app',
      ...MARKERS,
    ]);
    const writes = [
      ...ddb.commandCalls(PutCommand),
      ...ddb.commandCalls(UpdateCommand),
      ...ddb.commandCalls(GetCommand),
      ...ddb.commandCalls(QueryCommand),
    ].map((c) => c.args[0].input);
    expect(new Set(writes.map((w) => w.TableName))).toEqual(new Set(['Tidewell-harbor-data-table']));
    expect(ctx.lines).toContain('[harbor] page keys: no item lacked its keys; every marker is written');
    expect(cognito.commandCalls(AdminCreateUserCommand)[0].args[0].input).toMatchObject({ UserPoolId: 'us-east-1_New', Username: 'ada@harbor.example' });
    expect(ddb.commandCalls(PutCommand)[0].args[0].input.TableName).toBe('Tidewell-harbor-data-table');
    const header = ctx.lines.findIndex((l) => l.startsWith('practice '));
    expect(ctx.lines[header]).toMatch(/^practice\s+version before → after\s+result\s+time$/);
    // The practice's five child processes take 30 s each on the test clock.
    expect(ctx.lines[header + 2]).toBe(`harbor    old1111@2026-11-20T08:00:00Z → ${VERSION}  deployed  2m 30s`);
    expect(ctx.lines.at(-1)).toBe(`1 practice(s) deployed at ${VERSION}.`);
  });

  it('stops only the failing practice in --all: the other one deploys, the summary names both, and the run exits 1', async () => {
    const ctx = fleet(practiceRoot(HARBOR, COVE), { failSynth: 'cove' });

    expect(await runCli(['deploy', '--all', '--concurrency', '2'], ctx)).toBe(1);

    const cove = ctx.runs.filter((r) => r.label === 'cove').map((r) => r.args[1]);
    expect(cove).toEqual(['synth']);
    expect(ctx.runs.filter((r) => r.label === 'harbor').map((r) => `${r.args[1]} ${r.args[2] ?? ''}`.trim())).toEqual([
      'synth -c',
      'check:deploy --',
      'scripts/practice/check-budgets.ts cdk.out/practices/harbor',
      'deploy Tidewell-harbor-data',
      'deploy Tidewell-harbor-app',
    ]);
    expect(deployed.has('Tidewell-cove-data')).toBe(false);
    expect(ctx.regions).toContain('us-west-2');
    const table = ctx.lines.slice(ctx.lines.indexOf('') + 1);
    expect(table[2]).toMatch(/^cove\s+new → new\s+failed at synth\s+(\d+m )?\d+s$/);
    expect(table[3]).toMatch(new RegExp(`^harbor\\s+old1111@2026-11-20T08:00:00Z → ${VERSION.replace(/[.]/g, '\\.')}\\s+deployed`));
    expect(ctx.lines).toContain(
      '[cove] FAILED at synth: `npx cdk synth` exited with 1: [Error at /Tidewell-cove-app/Api] AwsSolutions-APIG4: The API does not implement authorization.',
    );
    expect(ctx.lines.at(-1)).toBe('1 of 2 practice(s) failed: cove.');
  });

  it("backfills each practice's page keys into its own table when practices deploy side by side", async () => {
    // Every table call yields first, so the two practices' backfills interleave.
    ddb.on(GetCommand).callsFake(() => new Promise((done) => setImmediate(() => done({}))));
    const ctx = fleet(practiceRoot(HARBOR, COVE));

    expect(await runCli(['deploy', '--all', '--concurrency', '2'], ctx)).toBe(0);

    const gets = ddb.commandCalls(GetCommand).map((c) => c.args[0].input);
    expect(gets.filter((g) => g.Key?.practiceId === 'prc_harbor').length).toBeGreaterThan(0);
    for (const g of gets) expect(g.TableName).toBe(g.Key?.practiceId === 'prc_harbor' ? 'Tidewell-harbor-data-table' : 'Tidewell-cove-data-table');
    const markers = ddb
      .commandCalls(PutCommand)
      .map((c) => c.args[0].input)
      .filter((p) => p.Item?.sk === 'CONTACTS#NUMBER_INDEX');
    expect(markers.map((m) => [m.TableName, m.Item?.practiceId]).sort()).toEqual([
      ['Tidewell-cove-data-table', 'prc_cove'],
      ['Tidewell-harbor-data-table', 'prc_harbor'],
    ]);
    expect(ctx.lines).toContain('[cove] page keys: no item lacked its keys; every marker is written');
  });

  it('names the page keys step when the backfill fails, with the app stack already at the new version', async () => {
    ddb.on(GetCommand).rejects(Object.assign(new Error('User is not authorized to perform: dynamodb:GetItem'), { name: 'AccessDeniedException' }));
    const ctx = fleet(practiceRoot(HARBOR));

    expect(await runCli(['deploy', 'harbor'], ctx)).toBe(1);

    expect(ctx.lines).toContain('[harbor] FAILED at page keys: AWS refused the call: User is not authorized to perform: dynamodb:GetItem');
    expect(
      ctx.lines.some((l) => new RegExp(`^harbor\\s+old1111@2026-11-20T08:00:00Z → ${VERSION.replace(/[.]/g, '\\.')}\\s+failed at page keys`).test(l)),
    ).toBe(true);
  });

  it('deploys nothing when the shared build fails', async () => {
    const ctx = fleet(practiceRoot(HARBOR, COVE), { failBuild: true });
    expect(await runCli(['deploy', '--all'], ctx)).toBe(1);
    expect(ctx.runs.map((r) => r.args[1])).toEqual(['build:web']);
    expect(ctx.errors).toEqual(['Nothing was deployed: `npm run build:web` exited with 1: error TS2345: web/src/app.tsx']);
    expect(cfn.calls()).toHaveLength(0);
  });

  it('refuses to deploy uncommitted changes under a commit tag unless told to', async () => {
    const ctx = fleet(practiceRoot(HARBOR), { dirty: true });
    expect(await runCli(['deploy', 'harbor'], ctx)).toBe(1);
    expect(ctx.errors[0]).toBe(
      `The working tree has uncommitted changes, so ${VERSION} would not say what is deployed. Commit them first, or pass --allow-dirty.`,
    );
    expect(ctx.runs).toHaveLength(0);
    expect(await runCli(['deploy', 'harbor', '--allow-dirty'], fleet(practiceRoot(HARBOR), { dirty: true }))).toBe(0);
  });

  it('--dry-run prints the plan for two practices, in order, without building, synthesizing, deploying or calling AWS', async () => {
    const ctx = fleet(practiceRoot(HARBOR, COVE));

    expect(await runCli(['deploy', '--all', '--dry-run'], ctx)).toBe(0);

    expect(ctx.runs).toHaveLength(0);
    expect(cfn.calls()).toHaveLength(0);
    expect(cognito.calls()).toHaveLength(0);
    expect(ddb.calls()).toHaveLength(0);
    const plan = ctx.lines.join('\n');
    expect(plan).toContain(`Version: ${VERSION}`);
    const order = [
      'npm run build:web',
      'cove (Cove Clinic; account from the credentials, us-west-2)',
      'npx cdk deploy Tidewell-cove-data',
      'first admin: none',
      'npx cdk deploy Tidewell-cove-app',
      '7. page keys: each key backfill not yet marked done',
      'harbor (Harbor',
      'cdk synth -c practice=harbor',
      'check:deploy -- cdk.out/practices/harbor',
      'npx cdk deploy Tidewell-harbor-data',
      'first admin ada@harbor.example',
      'npx cdk deploy Tidewell-harbor-app',
      '7. page keys: each key backfill not yet marked done',
    ];
    // Each searched for after the one before it, so the two practices' page keys steps are told apart.
    let from = 0;
    const at = order.map((s) => (from = plan.indexOf(s, from)));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("plans a dry run from another folder of practice files, but deploys only the repository's", async () => {
    const elsewhere = practiceRoot(HARBOR, COVE);
    const ctx = fleet(practiceRoot());
    expect(await runCli(['deploy', '--all', '--dry-run', '--practices-dir', `${elsewhere}/practices`], ctx)).toBe(0);
    expect(ctx.lines.filter((l) => /^[a-z-]+ \(/.test(l))).toHaveLength(2);
    const real = fleet(practiceRoot());
    expect(await runCli(['deploy', '--all', '--practices-dir', `${elsewhere}/practices`], real)).toBe(2);
    expect(real.errors).toEqual(["--practices-dir works with --dry-run only: the synth reads the repository's practices/ folder."]);
  });

  it('marks an invalid practice file as failed and deploys the others', async () => {
    const root = practiceRoot(HARBOR, { ...COVE, firstAdmin: { email: 'not-an-address', firstName: 'C', lastName: 'D' } });
    const ctx = fleet(root);
    expect(await runCli(['deploy', '--all'], ctx)).toBe(1);
    expect(ctx.errors[0]).toBe('practices/cove.json is not a valid practice config:\n  firstAdmin.email: firstAdmin.email must be an email address');
    expect(ctx.runs.some((r) => r.label === 'cove')).toBe(false);
    expect(deployed.get('Tidewell-harbor-app')?.Tags?.[0].Value).toBe(VERSION);
    expect(ctx.lines.some((l) => /^cove\s+\? → \?\s+invalid practice file/.test(l))).toBe(true);
  });

  it('prints the plan without git history, but deploys nothing it cannot name a version for', async () => {
    const noGit = async () => {
      throw new Error('git rev-parse --short HEAD failed: not a git repository');
    };
    const plan = fleet(practiceRoot(HARBOR));
    plan.git = noGit;
    expect(await runCli(['deploy', 'harbor', '--dry-run'], plan)).toBe(0);
    expect(plan.lines).toContain('Version: unknown@unknown (stack tag tidewell:version on both stacks)');
    const real = fleet(practiceRoot(HARBOR));
    real.git = noGit;
    expect(await runCli(['deploy', 'harbor'], real)).toBe(1);
    expect(real.errors).toEqual(['Failed: git rev-parse --short HEAD failed: not a git repository']);
    expect(real.runs).toHaveLength(0);
  });

  it('says to sign in when AWS has no credentials, before anything is synthesized', async () => {
    cfn.on(DescribeStacksCommand).rejects(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }));
    const ctx = fleet(practiceRoot(HARBOR));
    expect(await runCli(['deploy', 'harbor'], ctx)).toBe(1);
    expect(ctx.lines).toContain(
      '[harbor] FAILED at reading its stacks: No AWS credentials were found. Sign in (aws sso login, or set AWS_PROFILE) and run it again.',
    );
    expect(ctx.runs.map((r) => r.label)).toEqual(['build', 'budgets']);
  });

  it('answers usage mistakes with exit 2 and what to type', async () => {
    const ctx = fleet(practiceRoot(HARBOR));
    expect(await runCli(['deploy'], ctx)).toBe(2);
    expect(await runCli(['deploy', 'harbour'], ctx)).toBe(2);
    expect(await runCli(['deploy', 'harbor', '--concurrency', '0'], ctx)).toBe(2);
    expect(await runCli(['deploy', 'harbor', '--force'], ctx)).toBe(2);
    expect(ctx.errors).toEqual([
      'Which practice? npm run practice -- deploy <slug>, or --all.',
      'There is no practice "harbour" (no practices/harbour.json). Known practices: harbor.',
      '--concurrency must be a whole number of 1 or more, not "0".',
      'deploy has no option --force. See: npm run practice -- deploy --help',
    ]);
    expect(ctx.runs).toHaveLength(0);
  });
});
