/**
 * The monthly cost of a practice: standing charges read from its templates (keys, secrets, alarms,
 * the Cognito tier, stored data with its backups and point-in-time recovery, logs kept, phone
 * numbers) and usage from its requests per month (Lambda at each function's memory size, the HTTP
 * API, DynamoDB units, S3, AppSync, Step Functions, the Scheduler, SNS, SMS, logs, transfer).
 */
import { costOf, PRICE_REGION, PRICES, PRICES_AS_OF, type Price, type PriceKey } from './prices.js';
import { recoveryPoints, type LambdaSize, type TemplateFacts } from './fixed.js';
import { ROUTE_KINDS, storedData, WORKDAY, type Requests, type RouteKind, type Scale } from './workload.js';

export interface CostLine {
  section: 'standing' | 'usage';
  service: string;
  item: string;
  quantity: number;
  priceKey: PriceKey;
  monthly: number;
}

/**
 * Every resource type the stacks may hold: the service it bills under, and whether it has a
 * standing charge of its own (priced in `standingLines`) or is paid per use only. A type not named
 * here stops the estimate, so a new kind of resource is priced before its figure is quoted.
 */
export const RESOURCE_TYPES: Record<string, { service: string; standing: boolean }> = {
  'AWS::KMS::Key': { service: 'KMS', standing: true },
  'AWS::SecretsManager::Secret': { service: 'Secrets Manager', standing: true },
  'AWS::CloudWatch::Alarm': { service: 'CloudWatch', standing: true },
  'AWS::Cognito::UserPool': { service: 'Cognito', standing: true },
  'AWS::DynamoDB::Table': { service: 'DynamoDB', standing: true },
  'AWS::Backup::BackupPlan': { service: 'Backup', standing: true },
  'AWS::S3::Bucket': { service: 'S3', standing: true },
  'AWS::Logs::LogGroup': { service: 'CloudWatch Logs', standing: true },
  'AWS::SMSVOICE::ConfigurationSet': { service: 'End User Messaging SMS', standing: true },
  'AWS::CloudFront::Distribution': { service: 'CloudFront', standing: true },
  'AWS::Backup::BackupVault': { service: 'Backup', standing: false },
  'AWS::Backup::BackupSelection': { service: 'Backup', standing: false },
  'AWS::Cognito::UserPoolGroup': { service: 'Cognito', standing: false },
  'AWS::Cognito::UserPoolClient': { service: 'Cognito', standing: false },
  'AWS::S3::BucketPolicy': { service: 'S3', standing: false },
  'AWS::IAM::Role': { service: 'IAM', standing: false },
  'AWS::IAM::Policy': { service: 'IAM', standing: false },
  'AWS::CloudFront::ResponseHeadersPolicy': { service: 'CloudFront', standing: false },
  'AWS::CloudFront::OriginAccessControl': { service: 'CloudFront', standing: false },
  'AWS::CloudFront::Function': { service: 'CloudFront', standing: false },
  'AWS::CertificateManager::Certificate': { service: 'ACM', standing: false },
  'AWS::Lambda::Function': { service: 'Lambda', standing: false },
  'AWS::Lambda::LayerVersion': { service: 'Lambda', standing: false },
  'AWS::Lambda::Permission': { service: 'Lambda', standing: false },
  'AWS::Lambda::EventSourceMapping': { service: 'Lambda', standing: false },
  'AWS::Lambda::EventInvokeConfig': { service: 'Lambda', standing: false },
  'AWS::Lambda::Url': { service: 'Lambda', standing: false },
  'Custom::CDKBucketDeployment': { service: 'Lambda', standing: false },
  'AWS::AppSync::GraphQLApi': { service: 'AppSync', standing: false },
  'AWS::AppSync::GraphQLSchema': { service: 'AppSync', standing: false },
  'AWS::AppSync::DataSource': { service: 'AppSync', standing: false },
  'AWS::AppSync::Resolver': { service: 'AppSync', standing: false },
  'AWS::AppSync::FunctionConfiguration': { service: 'AppSync', standing: false },
  'AWS::Scheduler::ScheduleGroup': { service: 'EventBridge Scheduler', standing: false },
  'AWS::Scheduler::Schedule': { service: 'EventBridge Scheduler', standing: false },
  'AWS::SNS::Topic': { service: 'SNS', standing: false },
  'AWS::SNS::TopicPolicy': { service: 'SNS', standing: false },
  'AWS::SNS::Subscription': { service: 'SNS', standing: false },
  'AWS::SQS::Queue': { service: 'SQS', standing: false },
  'AWS::SQS::QueuePolicy': { service: 'SQS', standing: false },
  'AWS::StepFunctions::StateMachine': { service: 'Step Functions', standing: false },
  'AWS::ApiGatewayV2::Api': { service: 'API Gateway', standing: false },
  'AWS::ApiGatewayV2::Stage': { service: 'API Gateway', standing: false },
  'AWS::ApiGatewayV2::Authorizer': { service: 'API Gateway', standing: false },
  'AWS::ApiGatewayV2::Integration': { service: 'API Gateway', standing: false },
  'AWS::ApiGatewayV2::Route': { service: 'API Gateway', standing: false },
  'AWS::CDK::Metadata': { service: 'CloudFormation', standing: false },
};

/** Share of raw log bytes CloudWatch Logs bills as stored (it stores compressed). */
const LOG_COMPRESSION = 0.15;
/** A Lambda invocation's log lines (START, END, REPORT and one structured line), and an access-log line. */
const LOG_KB_PER_INVOCATION = 0.6;
const LOG_KB_PER_API_REQUEST = 0.45;
/** Step Functions logs at level ALL: one event per state transition. */
const LOG_KB_PER_TRANSITION = 1;

export interface EstimateInput {
  facts: TemplateFacts;
  scale: Scale;
  requests: Requests;
  profiles?: Record<string, RouteKind>;
  /** Origination numbers the practice file lists. */
  smsNumbers: number;
}

export interface Estimate {
  lines: CostLine[];
  /** Resource types present with no standing charge (paid per use in the usage lines). */
  perUseTypes: [string, number][];
  total: number;
}

function sizeOf(facts: TemplateFacts, role: string): LambdaSize {
  const size = facts.lambdas.get(role);
  if (!size) throw new Error(`The template has no Lambda described as "Tidewell ${role}…" to size the ${role} requests`);
  return size;
}

export function estimate({ facts, scale, requests, profiles = ROUTE_KINDS, smsNumbers }: EstimateInput): Estimate {
  const unknown = [...facts.types.keys()].filter((t) => !RESOURCE_TYPES[t]);
  if (unknown.length) throw new Error(`No price rule for ${unknown.join(', ')}: add it to RESOURCE_TYPES in scripts/cost/estimate.ts`);

  const lines: CostLine[] = [];
  const add = (section: CostLine['section'], service: string, item: string, priceKey: PriceKey, quantity: number) =>
    lines.push({ section, service, item, quantity, priceKey, monthly: costOf(priceKey, quantity) });

  // Usage: requests by kind through their functions.
  const invocations = new Map<string, { count: number; gbSeconds: number; arm: boolean }>();
  const invoke = (role: string, count: number, ms: number) => {
    if (!count) return;
    const size = sizeOf(facts, role);
    const prev = invocations.get(role) ?? { count: 0, gbSeconds: 0, arm: size.arm };
    prev.count += count;
    prev.gbSeconds += count * (Math.ceil(ms) / 1000) * (size.memoryMb / 1024);
    invocations.set(role, prev);
  };
  let apiRequests = 0;
  let preflights = 0;
  let rru = 0;
  let wru = 0;
  let responseKb = 0;
  let notifications = 0;
  let smsOut = 0;
  let smsIn = 0;
  let s3Puts = 0;
  let s3Gets = 0;
  for (const [kind, count] of Object.entries(requests)) {
    const profile = profiles[kind];
    if (!profile) throw new Error(`Unknown route kind ${kind}`);
    invoke(profile.fn, count, profile.ms);
    if (profile.api) apiRequests += count;
    if (profile.api) preflights += count * (profile.preflights ?? 0);
    rru += count * profile.rru;
    wru += count * profile.wru;
    responseKb += count * profile.responseKb;
    notifications += count * (profile.notifies ?? 0);
    smsOut += count * (profile.smsOutParts ?? 0);
    smsIn += count * (profile.smsInParts ?? 0);
    s3Puts += count * (profile.s3Puts ?? 0);
    s3Gets += count * (profile.s3Gets ?? 0);
  }
  const staffDays = scale.staff * WORKDAY.daysPerMonth;
  // The live feed: the stream consumer publishes each notification (one AppSync mutation), two
  // subscribers on average receive it; each signed-in tab keeps one connection all day and
  // subscribes twice per page load (four loads a day), each subscription checked by the guard.
  invoke('notification publisher', notifications, 60);
  const subscriptions = staffDays * 4 * 2;
  invoke('realtime subscription access check', subscriptions, 30);
  // A quarter of visits scribed: each transcription runs about 12 state transitions and four worker steps of 2 s.
  const transcriptions = (scale.appointmentsPerYear / 12) * 0.25;
  invoke('transcription steps', transcriptions * 4, 2_000);
  const fhirExports = scale.staff ? 1 : 0;
  const transitions = transcriptions * 12 + fhirExports * (10 + (scale.patients / 1_000) * 3);

  const totalInvocations = [...invocations.values()].reduce((s, v) => s + v.count, 0);
  add('usage', 'Lambda', 'requests (every function)', 'lambdaRequests', totalInvocations);
  for (const [role, v] of [...invocations].sort((a, b) => b[1].gbSeconds - a[1].gbSeconds)) {
    const mb = sizeOf(facts, role).memoryMb;
    add(
      'usage',
      'Lambda',
      `${role} (${mb} MB): ${Math.round(v.count).toLocaleString('en-US')} invocations`,
      v.arm ? 'lambdaGbSecondArm' : 'lambdaGbSecondX86',
      v.gbSeconds,
    );
  }
  add('usage', 'API Gateway', 'HTTP API requests', 'httpApiRequests', apiRequests);
  add('usage', 'API Gateway', "CORS preflights (the browser's, answered from the API's CORS settings)", 'httpApiRequests', preflights);
  add('usage', 'DynamoDB', 'read request units', 'dynamoRead', rru);
  add('usage', 'DynamoDB', 'write request units', 'dynamoWrite', wru);
  add('usage', 'S3', 'PUT requests (uploads)', 's3Put', s3Puts);
  add('usage', 'S3', 'GET requests (downloads)', 's3Get', s3Gets);
  add('usage', 'AppSync', 'mutations (notifications published)', 'appSyncOperations', notifications);
  add('usage', 'AppSync', 'real-time updates (two subscribers each)', 'appSyncUpdates', notifications * 2);
  add('usage', 'AppSync', 'connection-minutes (one per signed-in staff)', 'appSyncMinutes', staffDays * WORKDAY.hours * 60);
  add('usage', 'Step Functions', 'state transitions (transcriptions, FHIR export)', 'stepTransitions', transitions);
  if (facts.tracedStateMachines) add('usage', 'X-Ray', 'traces (one per execution)', 'xrayTraces', transcriptions + fhirExports);
  add('usage', 'EventBridge Scheduler', 'invocations (hourly sync, reminders)', 'schedulerInvocations', requests.scheduledJob ?? 0);
  add('usage', 'SNS', 'publishes (inbound texts, delivery receipts)', 'snsPublishes', (requests.textInbound ?? 0) + (requests.smsReceipt ?? 0));
  add('usage', 'End User Messaging SMS', 'outbound message parts', 'smsOutbound', smsOut);
  add('usage', 'End User Messaging SMS', 'inbound message parts', 'smsInbound', smsIn);
  const logGb =
    (totalInvocations * LOG_KB_PER_INVOCATION + (apiRequests + preflights) * LOG_KB_PER_API_REQUEST + transitions * LOG_KB_PER_TRANSITION) / (1024 * 1024);
  add('usage', 'CloudWatch Logs', 'ingested', 'logsIngest', logGb);
  // DynamoDB and the log groups ask KMS for data keys every few minutes while in use; S3 uses a bucket key.
  add('usage', 'KMS', 'requests', 'kmsRequests', scale.staff ? 30_000 : 3_000);
  add('usage', 'Secrets Manager', 'API calls (cold starts read the partner secrets)', 'secretCalls', staffDays * 10);
  add('usage', 'CloudFront', 'HTTPS requests (four app loads a day, 40 files each)', 'cloudFrontRequests', staffDays * 4 * 40);
  add('usage', 'CloudFront', 'GB transferred (about 0.3 MB per load)', 'cloudFrontTransfer', (staffDays * 4 * 0.3) / 1024);
  add('usage', 'Data transfer', 'API responses, GB', 'dataTransferOut', responseKb / (1024 * 1024));

  // Standing: what the templates keep running or stored whatever the requests.
  const stored = storedData(scale);
  const standing: CostLine[] = [];
  const fixed = (service: string, item: string, priceKey: PriceKey, quantity: number) =>
    standing.push({ section: 'standing', service, item, quantity, priceKey, monthly: costOf(priceKey, quantity) });
  const count = (type: string) => facts.types.get(type) ?? 0;
  if (count('AWS::KMS::Key')) fixed('KMS', `AWS::KMS::Key × ${count('AWS::KMS::Key')}`, 'kmsKey', facts.kmsKeys);
  if (count('AWS::SecretsManager::Secret')) fixed('Secrets Manager', `AWS::SecretsManager::Secret × ${facts.secrets}`, 'secret', facts.secrets);
  if (count('AWS::CloudWatch::Alarm'))
    fixed('CloudWatch', `AWS::CloudWatch::Alarm × ${facts.alarms} (${facts.alarmMetrics} metrics)`, 'alarmMetric', facts.alarmMetrics);
  if (count('AWS::Cognito::UserPool')) {
    const tier = facts.cognitoTier ?? 'ESSENTIALS';
    fixed(
      'Cognito',
      `AWS::Cognito::UserPool × ${count('AWS::Cognito::UserPool')}, ${tier} tier: monthly active staff`,
      tier === 'PLUS' ? 'cognitoPlus' : tier === 'LITE' ? 'cognitoLite' : 'cognitoEssentials',
      scale.staff,
    );
  }
  if (count('AWS::DynamoDB::Table')) {
    fixed('DynamoDB', `AWS::DynamoDB::Table × ${count('AWS::DynamoDB::Table')}: stored, GB (with its indexes)`, 'dynamoStorage', stored.tableGb);
    if (facts.pitr) fixed('DynamoDB', 'point-in-time recovery, GB', 'dynamoPitr', stored.tableGb);
  }
  if (count('AWS::Backup::BackupPlan')) {
    // Each recovery point of a DynamoDB table is a full copy, counted here at today's table size.
    const points = facts.backupRules.map((rule) => ({ rule, ...recoveryPoints(rule, scale.years * 365) }));
    const warm = points.reduce((s, p) => s + p.warm, 0);
    const cold = points.reduce((s, p) => s + p.cold, 0);
    const names = points.map((p) => `${p.rule.name} ${p.warm + p.cold}`).join(', ');
    fixed(
      'Backup',
      `AWS::Backup::BackupPlan × ${count('AWS::Backup::BackupPlan')}: ${warm} recovery points of the table (${names}), GB`,
      'dynamoBackup',
      stored.tableGb * warm,
    );
    if (cold) fixed('Backup', `${cold} recovery points in cold storage, GB`, 'dynamoBackupCold', stored.tableGb * cold);
  }
  if (count('AWS::S3::Bucket')) fixed('S3', `AWS::S3::Bucket × ${count('AWS::S3::Bucket')}: patient files, GB`, 's3Storage', stored.filesGb);
  if (count('AWS::Logs::LogGroup')) {
    const keptMonths = Math.min(facts.logRetentionDays ? facts.logRetentionDays / 30.4 : Infinity, scale.years * 12);
    fixed(
      'CloudWatch Logs',
      `AWS::Logs::LogGroup × ${count('AWS::Logs::LogGroup')}: ${Math.round(keptMonths)} months kept, GB`,
      'logsStorage',
      logGb * keptMonths * LOG_COMPRESSION,
    );
  }
  if (count('AWS::SMSVOICE::ConfigurationSet')) {
    fixed(
      'End User Messaging SMS',
      `AWS::SMSVOICE::ConfigurationSet × ${count('AWS::SMSVOICE::ConfigurationSet')}: origination numbers`,
      'smsNumber',
      smsNumbers,
    );
    if (smsNumbers) fixed('End User Messaging SMS', '10DLC campaign', 'smsCampaign', 1);
  }
  if (count('AWS::CloudFront::Distribution')) {
    standing.push({
      section: 'standing',
      service: 'CloudFront',
      item: `AWS::CloudFront::Distribution × ${count('AWS::CloudFront::Distribution')} (pay as you go: no monthly charge)`,
      quantity: 0,
      priceKey: 'cloudFrontRequests',
      monthly: 0,
    });
  }

  const all = [...standing, ...lines];
  const perUseTypes = [...facts.types].filter(([t]) => !RESOURCE_TYPES[t].standing).sort(([a], [b]) => a.localeCompare(b));
  return { lines: all, perUseTypes, total: all.reduce((s, l) => s + l.monthly, 0) };
}

const usd = (n: number) => (n >= 100 ? `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}` : `$${n.toFixed(2)}`);
const qty = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 1 ? n.toFixed(1) : n.toPrecision(2));
const unitPrice = (p: Price) => `$${p.usd} / ${p.per === 1 ? '' : `${p.per.toLocaleString('en-US')} `}${p.unit}`;

/** The printed report: the table, a total per service, the total, the prices used with their date and source. */
export function formatEstimate(e: Estimate, heading: string): string {
  const out: string[] = [heading, ''];
  const row = (cols: string[]) => `${cols[0].padEnd(24)} ${cols[1].padEnd(74)} ${cols[2].padStart(14)} ${cols[3].padStart(10)}`;
  for (const section of ['standing', 'usage'] as const) {
    out.push(section === 'standing' ? 'Standing (from the template):' : 'Usage (requests of a month):');
    out.push(row(['Service', 'Item', 'Quantity', 'Monthly']));
    for (const l of e.lines.filter((x) => x.section === section)) out.push(row([l.service, l.item, l.quantity ? qty(l.quantity) : '—', usd(l.monthly)]));
    out.push('');
  }
  out.push(`No standing charge (paid per use above): ${e.perUseTypes.map(([t, n]) => `${t} × ${n}`).join(', ')}`, '');
  const byService = new Map<string, number>();
  for (const l of e.lines) byService.set(l.service, (byService.get(l.service) ?? 0) + l.monthly);
  out.push('By service:');
  for (const [service, sum] of [...byService].sort((a, b) => b[1] - a[1])) out.push(`  ${service.padEnd(24)} ${usd(sum).padStart(10)}`);
  out.push(`  ${'Total per month'.padEnd(24)} ${usd(e.total).padStart(10)}`, '');
  out.push(`Prices: ${PRICE_REGION} on-demand list prices as of ${PRICES_AS_OF}, no free tier (scripts/cost/prices.ts):`);
  const used = [...new Set(e.lines.map((l) => l.priceKey))];
  for (const key of used) {
    const p = PRICES[key];
    out.push(`  ${unitPrice(p)} (${p.status}; ${p.source})`);
  }
  return out.join('\n');
}
