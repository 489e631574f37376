/** Entry of `npm run practice`: the CLI with real AWS clients, child processes and the terminal. */
import { BackupClient } from '@aws-sdk/client-backup';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import { REPO_ROOT } from '../../infra/lib/paths.js';
import { runCli } from './cli.js';
import { CommandFailed, type AwsClients, type CliContext } from './context.js';

const clients = new Map<string, AwsClients>();

function aws(region: string): AwsClients {
  let c = clients.get(region);
  if (!c) {
    const dynamodb = new DynamoDBClient({ region });
    c = {
      cfn: new CloudFormationClient({ region }),
      cognito: new CognitoIdentityProviderClient({ region }),
      dynamodb,
      ddb: DynamoDBDocumentClient.from(dynamodb, { marshallOptions: { removeUndefinedValues: true } }),
      cloudwatch: new CloudWatchClient({ region }),
      backup: new BackupClient({ region }),
      s3: new S3Client({ region }),
    };
    clients.set(region, c);
  }
  return c;
}

function run(command: string, args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    const relay = (stream: NodeJS.WritableStream) => {
      let partial = '';
      return (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          stream.write(`[${label}] ${line}\n`);
          if (line.trim()) tail.push(line.trim());
          if (tail.length > 20) tail.shift();
        }
      };
    };
    child.stdout.on('data', relay(process.stdout));
    child.stderr.on('data', relay(process.stderr));
    child.on('error', (e) => reject(new CommandFailed([command, ...args].join(' '), null, [e.message])));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new CommandFailed([command, ...args].join(' '), code, tail))));
  });
}

function git(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: REPO_ROOT }, (error, stdout) =>
      error ? reject(new Error(`git ${args.join(' ')} failed: ${error.message}`)) : resolve(stdout.trim()),
    );
  });
}

const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;

const ctx: CliContext = {
  root: REPO_ROOT,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  aws,
  run,
  git,
  now: () => new Date(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  prompt: interactive
    ? async (question) => {
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        try {
          return await rl.question(question);
        } finally {
          rl.close();
        }
      }
    : null,
};

runCli(process.argv.slice(2), ctx).then((code) => process.exit(code));
