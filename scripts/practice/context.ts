/** What the commands need from the outside world, injected so the logic runs offline in tests. */
import type { BackupClient } from '@aws-sdk/client-backup';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';

export interface AwsClients {
  cfn: CloudFormationClient;
  cognito: CognitoIdentityProviderClient;
  dynamodb: DynamoDBClient;
  ddb: DynamoDBDocumentClient;
  cloudwatch: CloudWatchClient;
  backup: BackupClient;
  /** The audit archive bucket (audit-verify reads it; nothing here writes or deletes). */
  s3: S3Client;
}

export interface CliContext {
  /** The repository root: practices/, the cdk app and the npm scripts live here. */
  root: string;
  out(line: string): void;
  err(line: string): void;
  /** SDK clients for one region (credentials from the usual chain: profile, SSO, environment). */
  aws(region: string): AwsClients;
  /** Runs a child process in `root`, its output prefixed with `label`; rejects with CommandFailed. */
  run(command: string, args: string[], label: string): Promise<void>;
  /** `git <args>` in `root`, its trimmed stdout. */
  git(args: string[]): Promise<string>;
  now(): Date;
  sleep(ms: number): Promise<void>;
  /** Asks on the terminal; null when stdin is not an interactive terminal. */
  prompt: ((question: string) => Promise<string>) | null;
}

/** A child process that exited non-zero; `tail` holds its last lines for the summary. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
  constructor(
    readonly commandLine: string,
    readonly code: number | null,
    readonly tail: string[],
  ) {
    super(`\`${commandLine}\` exited with ${code ?? 'a signal'}${tail.length ? `: ${tail[tail.length - 1]}` : ''}`);
  }
}

/** A mistake in how the command was called: exit code 2 and the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** AWS errors an operator meets first, in words that say what to do. */
export function plainAwsError(e: unknown): string {
  const name = (e as { name?: string }).name ?? '';
  const message = (e as Error).message ?? String(e);
  if (name === 'CredentialsProviderError' || /Could not load credentials/i.test(message))
    return `No AWS credentials were found. Sign in (aws sso login, or set AWS_PROFILE) and run it again.`;
  if (name === 'ExpiredTokenException' || name === 'ExpiredToken') return `The AWS session has expired. Sign in again (aws sso login) and run it again.`;
  if (name === 'AccessDeniedException' || name === 'AccessDenied') return `AWS refused the call: ${message}`;
  return `Failed: ${message}`;
}
