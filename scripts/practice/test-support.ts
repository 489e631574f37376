/** A CliContext for the tests: SDK clients whose classes the tests mock, recorded child processes, a clock that sleeps instantly. */
import { BackupClient } from '@aws-sdk/client-backup';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AwsClients, CliContext } from './context.js';

export const COMMIT = 'abc1234';
/** 2026-12-01T10:00:00Z */
export const COMMIT_SECONDS = 1_796_119_200;
export const VERSION = `${COMMIT}@2026-12-01T10:00:00Z`;

export interface FakeContext extends CliContext {
  lines: string[];
  errors: string[];
  runs: { command: string; args: string[]; label: string }[];
  regions: string[];
  sleeps: number;
}

export function fakeContext(
  root: string,
  options: { dirty?: boolean; onRun?: (command: string, args: string[]) => Promise<void> | void; prompt?: CliContext['prompt'] } = {},
): FakeContext {
  let clock = Date.parse('2026-12-02T09:00:00Z');
  const dynamodb = new DynamoDBClient({ region: 'us-east-1' });
  const clients: AwsClients = {
    cfn: new CloudFormationClient({ region: 'us-east-1' }),
    cognito: new CognitoIdentityProviderClient({ region: 'us-east-1' }),
    dynamodb,
    ddb: DynamoDBDocumentClient.from(dynamodb),
    cloudwatch: new CloudWatchClient({ region: 'us-east-1' }),
    backup: new BackupClient({ region: 'us-east-1' }),
    s3: new S3Client({ region: 'us-east-1' }),
  };
  const ctx: FakeContext = {
    root,
    lines: [],
    errors: [],
    runs: [],
    regions: [],
    sleeps: 0,
    out: (line) => ctx.lines.push(line),
    err: (line) => ctx.errors.push(line),
    aws: (region) => {
      ctx.regions.push(region);
      return clients;
    },
    run: async (command, args, label) => {
      ctx.runs.push({ command, args, label });
      clock += 30_000;
      await options.onRun?.(command, args);
    },
    git: async (args) => (args[0] === 'rev-parse' ? COMMIT : args[0] === 'log' ? String(COMMIT_SECONDS) : options.dirty ? ' M functions/x.ts' : ''),
    now: () => new Date(clock),
    sleep: async (ms) => {
      ctx.sleeps++;
      clock += ms;
    },
    prompt: options.prompt ?? null,
  };
  return ctx;
}

export const HARBOR = {
  slug: 'harbor',
  practiceId: 'prc_harbor',
  practiceName: 'Harbor Family Medicine',
  region: 'us-east-1',
  firstAdmin: { email: 'ada@harbor.example', firstName: 'Ada', lastName: 'Lee' },
};
export const COVE = { slug: 'cove', practiceId: 'prc_cove', practiceName: 'Cove Clinic', region: 'us-west-2' };

/** A repository root in a temp dir holding practices/<slug>.json for each config given. */
export function practiceRoot(...configs: Record<string, unknown>[]): string {
  const root = mkdtempSync(join(tmpdir(), 'tidewell-practice-cli-'));
  mkdirSync(join(root, 'practices'));
  for (const c of configs) writeFileSync(join(root, 'practices', `${String(c.slug)}.json`), JSON.stringify(c, null, 2));
  return root;
}
