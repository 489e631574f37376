/**
 * The price table `npm run cost` uses: AWS on-demand list prices in us-east-1, in US dollars,
 * without free tiers (several practices share one account's free tier, and the Cognito Plus tier
 * the pool uses has none). Each price names its page; `confirmed` marks a price read again on the
 * date below in a public copy of that page or of AWS's documentation, `assumed` one taken from the
 * page as last known without a copy to read it again (check it before quoting the figure).
 * Change a price here and the date with it.
 */
export const PRICES_AS_OF = '2026-12-02';
export const PRICE_REGION = 'us-east-1';

export interface Price {
  /** Dollars per `per` units of `unit`. */
  usd: number;
  per: number;
  unit: string;
  source: string;
  status: 'confirmed' | 'assumed';
}

const page = (service: string) => `https://aws.amazon.com/${service}/pricing/`;

export const PRICES = {
  lambdaGbSecondArm: { usd: 0.0000133334, per: 1, unit: 'GB-second (arm64)', source: page('lambda'), status: 'assumed' },
  lambdaGbSecondX86: { usd: 0.0000166667, per: 1, unit: 'GB-second (x86_64)', source: page('lambda'), status: 'assumed' },
  lambdaRequests: { usd: 0.2, per: 1_000_000, unit: 'requests', source: page('lambda'), status: 'assumed' },
  httpApiRequests: { usd: 1.0, per: 1_000_000, unit: 'HTTP API requests', source: page('api-gateway'), status: 'assumed' },
  dynamoWrite: { usd: 0.625, per: 1_000_000, unit: 'write request units (on-demand)', source: page('dynamodb'), status: 'confirmed' },
  dynamoRead: { usd: 0.125, per: 1_000_000, unit: 'read request units (on-demand)', source: page('dynamodb'), status: 'confirmed' },
  dynamoStorage: { usd: 0.25, per: 1, unit: 'GB-month stored (Standard class)', source: page('dynamodb'), status: 'assumed' },
  dynamoPitr: { usd: 0.2, per: 1, unit: 'GB-month under point-in-time recovery', source: page('dynamodb'), status: 'assumed' },
  dynamoBackup: {
    usd: 0.1,
    per: 1,
    unit: 'GB-month of backup in warm storage (each recovery point is a full copy)',
    source: page('backup'),
    status: 'assumed',
  },
  dynamoBackupCold: {
    usd: 0.03,
    per: 1,
    unit: 'GB-month of backup in cold storage (AWS Backup advanced DynamoDB backups)',
    source: page('backup'),
    status: 'assumed',
  },
  s3Storage: { usd: 0.023, per: 1, unit: 'GB-month (S3 Standard)', source: page('s3'), status: 'assumed' },
  s3GlacierIr: { usd: 0.004, per: 1, unit: 'GB-month (Glacier Instant Retrieval)', source: page('s3'), status: 'assumed' },
  s3Put: { usd: 0.005, per: 1_000, unit: 'PUT/POST/LIST requests', source: page('s3'), status: 'assumed' },
  s3Get: { usd: 0.0004, per: 1_000, unit: 'GET requests', source: page('s3'), status: 'assumed' },
  kmsKey: { usd: 1.0, per: 1, unit: 'customer managed key-month (each automatic rotation adds $1, up to two)', source: page('kms'), status: 'assumed' },
  kmsRequests: { usd: 0.03, per: 10_000, unit: 'KMS requests', source: page('kms'), status: 'assumed' },
  secret: { usd: 0.4, per: 1, unit: 'secret-month', source: page('secrets-manager'), status: 'assumed' },
  secretCalls: { usd: 0.05, per: 10_000, unit: 'Secrets Manager API calls', source: page('secrets-manager'), status: 'assumed' },
  alarmMetric: {
    usd: 0.1,
    per: 1,
    unit: 'alarm metric-month (standard resolution; a metric-math alarm counts each metric)',
    source: page('cloudwatch'),
    status: 'assumed',
  },
  logsIngest: { usd: 0.5, per: 1, unit: 'GB of logs ingested', source: page('cloudwatch'), status: 'assumed' },
  logsStorage: { usd: 0.03, per: 1, unit: 'GB-month of logs stored (compressed)', source: page('cloudwatch'), status: 'assumed' },
  cognitoPlus: { usd: 0.02, per: 1, unit: 'monthly active user (Plus tier)', source: page('cognito'), status: 'assumed' },
  cognitoEssentials: { usd: 0.015, per: 1, unit: 'monthly active user (Essentials tier)', source: page('cognito'), status: 'assumed' },
  cognitoLite: { usd: 0.0055, per: 1, unit: 'monthly active user (Lite tier)', source: page('cognito'), status: 'assumed' },
  cloudFrontTransfer: { usd: 0.085, per: 1, unit: 'GB to the internet (North America, first 10 TB)', source: page('cloudfront'), status: 'assumed' },
  cloudFrontRequests: { usd: 0.01, per: 10_000, unit: 'HTTPS requests', source: page('cloudfront'), status: 'assumed' },
  dataTransferOut: {
    usd: 0.09,
    per: 1,
    unit: 'GB from the API to the internet (first 10 TB)',
    source: 'https://aws.amazon.com/ec2/pricing/on-demand/#Data_Transfer',
    status: 'assumed',
  },
  appSyncOperations: { usd: 4.0, per: 1_000_000, unit: 'query and mutation operations', source: page('appsync'), status: 'assumed' },
  appSyncUpdates: { usd: 2.0, per: 1_000_000, unit: 'real-time updates', source: page('appsync'), status: 'assumed' },
  appSyncMinutes: { usd: 0.08, per: 1_000_000, unit: 'connection-minutes', source: page('appsync'), status: 'assumed' },
  stepTransitions: { usd: 0.025, per: 1_000, unit: 'state transitions (Standard workflows)', source: page('step-functions'), status: 'assumed' },
  xrayTraces: { usd: 5.0, per: 1_000_000, unit: 'traces recorded', source: page('xray'), status: 'assumed' },
  schedulerInvocations: { usd: 1.0, per: 1_000_000, unit: 'scheduled invocations', source: page('eventbridge'), status: 'assumed' },
  sqsRequests: { usd: 0.4, per: 1_000_000, unit: 'SQS requests (standard)', source: page('sqs'), status: 'assumed' },
  snsPublishes: { usd: 0.5, per: 1_000_000, unit: 'SNS publishes', source: page('sns'), status: 'assumed' },
  smsOutbound: {
    usd: 0.00581 + 0.003,
    per: 1,
    unit: 'outbound US SMS part (AWS $0.00581 + carrier fee about $0.003)',
    source: 'https://aws.amazon.com/end-user-messaging/pricing/',
    status: 'assumed',
  },
  smsInbound: { usd: 0.00581, per: 1, unit: 'inbound US SMS part', source: 'https://aws.amazon.com/end-user-messaging/pricing/', status: 'assumed' },
  smsNumber: { usd: 2.0, per: 1, unit: 'US 10DLC phone number-month', source: 'https://aws.amazon.com/end-user-messaging/pricing/', status: 'assumed' },
  smsCampaign: {
    usd: 10.0,
    per: 1,
    unit: '10DLC campaign-month (carrier registry fee passed through)',
    source: 'https://docs.aws.amazon.com/sms-voice/latest/userguide/registrations-10dlc.html',
    status: 'assumed',
  },
} satisfies Record<string, Price>;

export type PriceKey = keyof typeof PRICES;

/** The monthly cost of `quantity` units at a price. */
export function costOf(key: PriceKey, quantity: number, prices: Record<PriceKey, Price> = PRICES): number {
  const p = prices[key];
  return (quantity / p.per) * p.usd;
}
