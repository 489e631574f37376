import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import type { GroupDefinition } from '../../functions/groups.js';
import { deployedPartnerOrigins, type PracticeConfig } from '../config/practice-config.js';
import { TELEPHONY_PARTNER_ID } from '../../shared/calls/call-schema.js';
import { FAX_PARTNER_ID } from '../../shared/faxes/fax-schema.js';
import { Alarms } from './alarms.js';
import { emailSendGrant } from './email.js';
import { Api } from './api.js';
import { FhirExport } from './fhir-export.js';
import { Copilot } from './copilot.js';
import { PracticeDataStack } from './data-stack.js';
import { AuditArchiver } from './audit-archive.js';
import { grantTableReadWrite, tidewellFunction } from './lambda-function.js';
import { NotificationStream } from './notification-stream.js';
import { Notifications } from './notifications.js';
import { Scheduler } from './scheduler.js';
import { Sms } from './sms.js';
import { Transcription } from './transcription.js';
import { appStackName, dataStackName, UNVERSIONED, VERSION_TAG } from './stack-names.js';
import { Web, type WebConfig } from './web.js';

export { appStackName, dataStackName } from './stack-names.js';

export interface PracticeAppStackProps extends StackProps {
  config: PracticeConfig;
  /** The practice's data stack: everything stateful, taken here by reference. */
  data: PracticeDataStack;
  groups: readonly GroupDefinition[];
  /** The built web app (web/dist). */
  webDist: string;
  /** The AppSync schema file (infra/graphql/schema.graphql). */
  graphqlSchemaPath: string;
}

/** The AppSync subscription resolvers' access check. */
export const SUBSCRIPTION_GUARD_ENTRY = 'functions/workers/subscription-guard/handler.ts';

/**
 * Everything a practice runs on that holds no record of its own: the group Lambdas, the HTTP API,
 * the realtime API, workflows, the Scheduler group, queues, alarms and the web. It takes the
 * table, buckets, pool, keys and secrets from the data stack by reference (CloudFormation exports),
 * so it can be destroyed and deployed again without touching a patient's record.
 */
export class PracticeAppStack extends Stack {
  readonly outputs: WebConfig;

  constructor(scope: Construct, id: string, props: PracticeAppStackProps) {
    super(scope, id, props);
    const { config } = props;
    const retainData = config.retainData;
    const { logging, accessLogs, data, auth, files, partners } = props.data;
    this.addStackDependency(props.data, 'the app takes the table, buckets, pool, keys and secrets from the data stack');

    const partnerOrigins = deployedPartnerOrigins(config);
    const web = new Web(this, 'Web', { retainData, accessLogs: accessLogs.bucket, partnerOrigins });
    const webOrigins = [web.url, ...(config.webDomain ? [`https://${config.webDomain}`] : [])];

    const subscriptionGuard = tidewellFunction(this, 'SubscriptionGuard', {
      entry: SUBSCRIPTION_GUARD_ENTRY,
      logging,
      description: `Tidewell realtime subscription access check (${config.slug})`,
      timeoutSeconds: 10,
      // MFA_POLICY: the API's MFA rule applies to subscribers too (an admin without TOTP under "admins").
      environment: { TABLE_NAME: data.table.tableName, PRACTICE_ID: config.practiceId, USER_POOL_ID: auth.userPool.userPoolId, MFA_POLICY: config.mfa },
    });
    // Reads the user record and sign-out time; writes the audit row of a refusal.
    grantTableReadWrite(subscriptionGuard, data.table);
    auth.userPool.grant(subscriptionGuard, 'cognito-idp:AdminGetUser');
    const notifications = new Notifications(this, 'Notifications', {
      slug: config.slug,
      schemaPath: props.graphqlSchemaPath,
      userPool: auth.userPool,
      logging,
      subscriptionGuard,
    });
    const common = { slug: config.slug, practiceId: config.practiceId, table: data.table, filesBucketName: files.bucket.bucketName, logging };
    const scheduler = new Scheduler(this, 'Scheduler', common);
    // A recurring appointment's reminder, once sent, schedules the next occurrence's.
    scheduler.grantSelfScheduling();
    const transcription = new Transcription(this, 'Transcription', { ...common, ai: config.ai, grantFiles: (fn) => files.grantReadWrite(fn) });
    // The only publisher: every notification written anywhere reaches subscribers from the stream.
    const notificationStream = new NotificationStream(this, 'NotificationStream', {
      slug: config.slug,
      practiceId: config.practiceId,
      table: data.table,
      logging,
    });
    notifications.grantPublish(notificationStream.consumer);
    // Every audit entry, in commit order, to the data stack's Object Lock bucket (put and read, never delete).
    const auditArchiver = new AuditArchiver(this, 'AuditArchiver', {
      slug: config.slug,
      practiceId: config.practiceId,
      table: data.table,
      bucket: props.data.auditArchive.bucket,
      key: props.data.auditArchive.key,
      logging,
    });
    const sms = new Sms(this, 'Sms', {
      slug: config.slug,
      worker: scheduler.target,
      deadLetterQueue: scheduler.deadLetterQueue,
      key: data.key,
      config: config.sms,
    });
    // Scheduled texts are sent by the schedule target.
    sms.grantSend(scheduler.target, (fn) => files.grantRead(fn));
    sms.allowMediaFrom(files.bucket, files.key);

    // The scheduled DoseSpot sync reads the clinic's DoseSpot entry (clinic key, clinic-level user).
    partners.grantRead(scheduler.target);

    // The export's machine runs on the chart group's function, made by the Api: groups that start it are granted after.
    const startsFhirExport: NodejsFunction[] = [];
    const copilot = new Copilot({ ai: config.ai, userPool: auth.userPool, client: auth.client, webOrigins });
    const api = new Api(this, 'Api', {
      ...common,
      groups: props.groups,
      userPool: auth.userPool,
      client: auth.client,
      webOrigins,
      mfaCheck: (fn: NodejsFunction) => auth.grantMfaCheck(fn, config.mfa),
      access: {
        files: (fn: NodejsFunction) => files.grantReadWrite(fn),
        scheduler: (fn: NodejsFunction) => scheduler.grantScheduling(fn),
        transcription: (fn: NodejsFunction) => transcription.grantStart(fn),
        email: emailSendGrant(config.email),
        identity: (fn: NodejsFunction) => auth.grantUserAdmin(fn),
        sms: (fn: NodejsFunction) => sms.grantSend(fn),
        partnerOrigins: (fn: NodejsFunction) => partners.passOrigins(fn),
        partnerSecrets: (fn: NodejsFunction) => partners.grantRead(fn),
        labs: (fn: NodejsFunction) => passLabs(fn, config.labs),
        telephony: (fn: NodejsFunction, apiUrl: string) => passTelephony(fn, config.telephony, apiUrl),
        fax: (fn: NodejsFunction, apiUrl: string) => passFax(fn, config.fax, apiUrl),
        fhirExport: (fn: NodejsFunction) => void startsFhirExport.push(fn),
        model: (fn: NodejsFunction) => copilot.grantModel(fn),
        'stream-url': (fn: NodejsFunction) => copilot.addStreamUrl(fn),
      },
    });

    const fhirExport = new FhirExport(this, 'FhirExport', {
      slug: config.slug,
      logging,
      worker: api.functions.get('chart')!,
      grantFilesRead: (fn) => files.grantRead(fn),
    });
    for (const fn of startsFhirExport) fhirExport.grantStart(fn);

    const alarms = new Alarms(this, 'Alarms', { slug: config.slug, emails: config.alarms?.emails ?? [] });
    alarms.watchDeadLetters('notification-stream', notificationStream.deadLetterQueue, 'A notification change (stream record)');
    alarms.watchDeadLetters('audit-archive', auditArchiver.deadLetterQueue, 'An audit entry (stream record) that could not be archived for 24 hours');
    alarms.watchDeadLetters('scheduler', scheduler.deadLetterQueue, 'A scheduled job (reminder, scheduled text) or an inbound text or delivery receipt');
    alarms.watchStateMachine('transcription', transcription.stateMachine);
    alarms.watchStateMachine('fhir-export', fhirExport.stateMachine);
    alarms.watchApiFunctions(api.functions);
    alarms.watchFunction('schedule-target', scheduler.target);
    alarms.watchFunction('transcription-worker', transcription.worker);
    alarms.watchFunction('notification-stream', notificationStream.consumer);
    alarms.watchFunction('audit-archive', auditArchiver.consumer);
    alarms.watchFunction('subscription-guard', subscriptionGuard);

    if (!config.alarms)
      Annotations.of(alarms).addWarningV2(
        'tidewell:no-alarm-subscribers',
        `practices/${config.slug}.json has no alarms.emails: alarms fire, but nobody is told.`,
      );

    this.outputs = {
      apiUrl: api.url,
      webUrl: web.url,
      graphqlUrl: notifications.api.graphqlUrl,
      userPoolId: auth.userPool.userPoolId,
      userPoolClientId: auth.client.userPoolClientId,
      cognitoEndpoint: `https://cognito-idp.${this.region}.amazonaws.com`,
      region: this.region,
      filesBucket: files.bucket.bucketName,
      copilotStreamUrl: copilot.streamUrl ?? '',
    };
    web.publish(props.webDist, { ...this.outputs, copilotModel: config.ai?.modelId ?? '' });

    // Output ids are the keys `cdk deploy --outputs-file` writes, the same as .local/outputs.json.
    for (const [name, value] of Object.entries(this.outputs)) {
      new CfnOutput(this, name, { value });
    }
  }
}

export interface PracticeStacksProps {
  config: PracticeConfig;
  groups: readonly GroupDefinition[];
  webDist: string;
  graphqlSchemaPath: string;
  env?: StackProps['env'];
  /** The release deployed, `<git sha>@<ISO date>` (`-c version=…`), written to both stacks' `tidewell:version` tag. */
  version?: string;
}

export interface PracticeStacks {
  data: PracticeDataStack;
  app: PracticeAppStack;
}

/** A practice's two stacks, `Tidewell-<slug>-data` then `Tidewell-<slug>-app`, the way the CDK app and the tests build them. */
export function addPracticeStacks(scope: Construct, props: PracticeStacksProps): PracticeStacks {
  const { config } = props;
  const tags = { app: 'tidewell', practice: config.slug, [VERSION_TAG]: props.version ?? UNVERSIONED };
  const data = new PracticeDataStack(scope, dataStackName(config.slug), {
    config,
    env: props.env,
    description: `Tidewell practice data (table, files, users, keys, secrets) for ${config.practiceName}`,
    tags,
  });
  const app = new PracticeAppStack(scope, appStackName(config.slug), {
    config,
    data,
    groups: props.groups,
    webDist: props.webDist,
    graphqlSchemaPath: props.graphqlSchemaPath,
    env: props.env,
    description: `Tidewell practice app (API, functions, workflows, web) for ${config.practiceName}`,
    tags,
  });
  data.pinExports();
  return { data, app };
}

/** Health Gorilla's account for the lab routes; without `labs` in the practice file ordering answers that labs are not set up. */
function passLabs(fn: NodejsFunction, labs: PracticeConfig['labs']): void {
  if (!labs) return;
  fn.addEnvironment('HEALTH_GORILLA_URL', labs.baseUrl);
  fn.addEnvironment('HEALTH_GORILLA_CLIENT_ID', labs.clientId);
  fn.addEnvironment('HEALTH_GORILLA_CLIENT_URI', labs.clientUri);
  fn.addEnvironment('HEALTH_GORILLA_USER_LOGIN', labs.userLogin);
  fn.addEnvironment('HEALTH_GORILLA_SCOPES', labs.scopes);
  fn.addEnvironment('HEALTH_GORILLA_AUTHORIZED_BY', labs.authorizedBy);
  fn.addEnvironment('HEALTH_GORILLA_PERFORMER', labs.performer);
}

/** Twilio's account for the call routes and callbacks; without `telephony` in the practice file calling answers that it is not set up. */
function passTelephony(fn: NodejsFunction, telephony: PracticeConfig['telephony'], apiUrl: string): void {
  if (!telephony) return;
  fn.addEnvironment('TELEPHONY_API_URL', telephony.baseUrl);
  fn.addEnvironment('TELEPHONY_ACCOUNT_SID', telephony.accountSid);
  fn.addEnvironment('TELEPHONY_NUMBERS', telephony.numbers.join(','));
  // What the numbers' webhooks are set to in Twilio: the signature is checked over this exact URL.
  fn.addEnvironment('TELEPHONY_CALLBACK_URL', `${apiUrl}/v1/partner-deliveries/${TELEPHONY_PARTNER_ID}/calls`);
}

/** The Sinch Fax project for the fax routes; without `fax` in the practice file faxing answers that it is not set up. */
function passFax(fn: NodejsFunction, fax: PracticeConfig['fax'], apiUrl: string): void {
  if (!fax) return;
  fn.addEnvironment('FAX_API_URL', fax.baseUrl);
  fn.addEnvironment('FAX_PROJECT_ID', fax.projectId);
  fn.addEnvironment('FAX_NUMBERS', fax.numbers.join(','));
  fn.addEnvironment('FAX_CALLBACK_URL', `${apiUrl}/v1/partner-deliveries/${FAX_PARTNER_ID}/faxes`);
}
