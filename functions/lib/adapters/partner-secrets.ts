/**
 * Each partner's signing secret. Deployed, one Secrets Manager secret holds them all as a JSON
 * object `{ "<partnerId>": "<secret>" }` (one resource however many partners; its ARN is
 * PARTNER_SECRETS_ARN), read with GetSecretValue as signed awsJson1_1 over HTTPS like the SMS
 * adapter, so no service client lands in the bundle. Locally PARTNER_SECRETS_FILE names the same
 * JSON in the data folder, written by `npm start`.
 *
 * Rotation without downtime: during a rotation the JSON holds the new secret under `<partnerId>`
 * and the one being retired under `<partnerId>:previous`; deliveries verified by either are taken
 * until the partner sends with the new one and the previous entry is removed (docs/deploy.md).
 */
import { readFileSync } from 'node:fs';
import { NodeSha256 } from './node-sha256.js';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpExchange } from './sms-carrier.js';

export interface PartnerSecrets {
  /** The partner's secret, or null when the practice has none for it. */
  secretOf(partnerId: string): Promise<string | null>;
  /** The secret being retired in a rotation (`<partnerId>:previous`), or null outside one. */
  previousSecretOf(partnerId: string): Promise<string | null>;
}

export const previousSecretKey = (partnerId: string) => `${partnerId}:previous`;

export const SECRETS_MANAGER_TARGET = 'secretsmanager.GetSecretValue';

function parseSecretMap(text: string): Record<string, string> {
  const parsed = JSON.parse(text) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('Partner secrets must be a JSON object');
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length >= 16),
  );
}

const fetchExchange: HttpExchange = async (url, init) => {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text(), errorType: response.headers.get('x-amzn-errortype') ?? undefined };
};

/** A secret rotated in the console reaches warm instances within this time. */
const CACHE_MS = 5 * 60_000;

export class SecretsManagerPartnerSecrets implements PartnerSecrets {
  private readonly signer: SignatureV4;
  private readonly url: URL;
  private cached: { at: number; map: Record<string, string> } | undefined;

  constructor(
    private readonly options: {
      secretArn: string;
      region: string;
      endpoint?: string;
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
      exchange?: HttpExchange;
      now?: () => number;
    },
  ) {
    this.signer = new SignatureV4({
      service: 'secretsmanager',
      region: options.region,
      sha256: NodeSha256,
      credentials: options.credentials ?? defaultProvider(),
    });
    this.url = new URL(options.endpoint ?? `https://secretsmanager.${options.region}.amazonaws.com/`);
  }

  private async load(): Promise<Record<string, string>> {
    const now = (this.options.now ?? Date.now)();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.map;
    const body = JSON.stringify({ SecretId: this.options.secretArn });
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path: this.url.pathname || '/',
      headers: { host: this.url.host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': SECRETS_MANAGER_TARGET },
      body,
    });
    const answer = await (this.options.exchange ?? fetchExchange)(this.url.href, { method: 'POST', headers: signed.headers as Record<string, string>, body });
    if (answer.status >= 300) {
      let type = answer.errorType;
      try {
        type ||= (JSON.parse(answer.body) as { __type?: string }).__type;
      } catch {
        /* not JSON: the header or the status names it */
      }
      throw new Error(`GetSecretValue failed: ${(type || `HTTP${answer.status}`).split(':')[0]!.split('#').pop()!}`);
    }
    const out = JSON.parse(answer.body) as { SecretString?: string };
    const map = parseSecretMap(out.SecretString ?? '{}');
    this.cached = { at: now, map };
    return map;
  }

  async secretOf(partnerId: string): Promise<string | null> {
    return (await this.load())[partnerId] ?? null;
  }

  async previousSecretOf(partnerId: string): Promise<string | null> {
    return (await this.load())[previousSecretKey(partnerId)] ?? null;
  }
}

export class FilePartnerSecrets implements PartnerSecrets {
  constructor(private readonly file: string) {}
  async secretOf(partnerId: string): Promise<string | null> {
    try {
      return parseSecretMap(readFileSync(this.file, 'utf8'))[partnerId] ?? null;
    } catch {
      return null;
    }
  }

  previousSecretOf(partnerId: string): Promise<string | null> {
    return this.secretOf(previousSecretKey(partnerId));
  }
}

let fromEnv: PartnerSecrets | undefined;

export function partnerSecretsFromEnv(): PartnerSecrets {
  if (process.env.PARTNER_SECRETS_FILE) return new FilePartnerSecrets(process.env.PARTNER_SECRETS_FILE);
  const arn = process.env.PARTNER_SECRETS_ARN;
  if (!arn) return { secretOf: async () => null, previousSecretOf: async () => null };
  fromEnv ??= new SecretsManagerPartnerSecrets({ secretArn: arn, region: process.env.AWS_REGION ?? 'us-east-1' });
  return fromEnv;
}
