import * as appsync from 'aws-cdk-lib/aws-appsync';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { readFileSync } from 'node:fs';
import { Kind, parse } from 'graphql';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { suppressGuardRules } from './guard.js';
import type { Logging } from './logging.js';
import { INLINE_POLICY_REASON } from './nag.js';

export interface PublishMutation {
  fieldName: string;
  /** True when the mutation takes a single `input` argument (the payload to fan out). */
  hasInputArgument: boolean;
}

/** The Mutation fields of a schema file; each becomes a pass-through resolver. */
export function publishMutations(schemaSdl: string): PublishMutation[] {
  const document = parse(schemaSdl);
  return document.definitions.flatMap((definition) =>
    (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) && definition.name.value === 'Mutation'
      ? (definition.fields ?? []).map((field) => ({
          fieldName: field.name.value,
          hasInputArgument: (field.arguments ?? []).some((arg) => arg.name.value === 'input'),
        }))
      : [],
  );
}

/** The Subscription fields of a schema file; each gets the access-check resolver. */
export function subscriptionFields(schemaSdl: string): string[] {
  const document = parse(schemaSdl);
  return document.definitions.flatMap((definition) =>
    (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) && definition.name.value === 'Subscription'
      ? (definition.fields ?? []).map((field) => field.name.value)
      : [],
  );
}

/**
 * A subscription resolver runs when a client subscribes: it hands the verified claims and the
 * arguments to the guard Lambda (the API's access rule) and refuses the subscription when the
 * guard throws. A subscription resolver returns null.
 */
export const SUBSCRIPTION_GUARD_CODE = [
  "import { util } from '@aws-appsync/utils';",
  'export function request(ctx) {',
  "  return { operation: 'Invoke', payload: { field: ctx.info.fieldName, arguments: ctx.args, claims: ctx.identity.claims, sourceIp: (ctx.identity.sourceIp || [])[0] } };",
  '}',
  'export function response(ctx) {',
  '  if (ctx.error) util.unauthorized();',
  '  return null;',
  '}',
].join('\n');

/**
 * A NONE data source resolver returns its payload unchanged: the mutation exists only so AppSync
 * fans the returned object out to the subscriptions that name it in @aws_subscribe.
 */
function passThroughCode(mutation: PublishMutation): string {
  const payload = mutation.hasInputArgument ? 'ctx.args.input' : 'ctx.args';
  return [`export function request(ctx) { return { payload: ${payload} }; }`, 'export function response(ctx) { return ctx.result; }'].join('\n');
}

export interface NotificationsProps {
  slug: string;
  schemaPath: string;
  userPool: cognito.IUserPool;
  logging: Logging;
  /** Checks each subscriber against the practice's user records (functions/workers/subscription-guard). */
  subscriptionGuard: NodejsFunction;
}

/** The realtime notifications API: browsers subscribe with their Cognito token, publishers sign with IAM. */
export class Notifications extends Construct {
  readonly api: appsync.GraphqlApi;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);

    const logRole = new iam.Role(this, 'LogRole', {
      assumedBy: new iam.ServicePrincipal('appsync.amazonaws.com'),
      description: 'AppSync writes the notifications API logs',
    });
    this.api = new appsync.GraphqlApi(this, 'Api', {
      name: `tidewell-${props.slug}-notifications`,
      definition: appsync.Definition.fromFile(props.schemaPath),
      authorizationConfig: {
        defaultAuthorization: {
          authorizationType: appsync.AuthorizationType.USER_POOL,
          userPoolConfig: { userPool: props.userPool, defaultAction: appsync.UserPoolDefaultAction.ALLOW },
        },
        additionalAuthorizationModes: [{ authorizationType: appsync.AuthorizationType.IAM }],
      },
      xrayEnabled: true,
    });
    // AppSync logs into this fixed name; creating it here gives it the key and the retention.
    // (The L2 logConfig would add a LogRetention custom resource racing this group for the name.)
    const logGroup = props.logging.logGroup(this, 'Logs', `/aws/appsync/apis/${this.api.apiId}`);
    // Without logs:CreateLogGroup, AppSync cannot create the group itself before the stack does.
    logRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn, `${logGroup.logGroupArn}:log-stream:*`],
      }),
    );
    const cfnApi = this.api.node.defaultChild as appsync.CfnGraphQLApi;
    // Errors only, without verbose content (headers, tokens, payloads): notifications carry patient names.
    cfnApi.logConfig = { cloudWatchLogsRoleArn: logRole.roleArn, fieldLogLevel: appsync.FieldLogLevel.ERROR, excludeVerboseContent: true };
    suppressGuardRules(this.api, [
      {
        rule: 'appsync_api_private_visibility_check',
        reason:
          "CT.APPSYNC.PR.2: the browsers of the practice's staff subscribe from the internet; a private API answers only through a VPC interface endpoint, which no browser reaches. Subscriptions need a Cognito token of the practice pool, and only the stack's functions (IAM) publish.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.api, [
      {
        id: 'AwsSolutions-ASC3',
        reason:
          'Request logging is on (field level ERROR, with a role); verbose content is excluded on purpose because it would copy tokens and notification payloads (patient names) into logs.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      logRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'AppSync names its log streams at run time; the grant covers the streams of this API log group only.',
          appliesTo: [{ regex: '/^Resource::<.*Logs.*\\.Arn>:log-stream:\\*$/g' }],
        },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );

    const schemaSdl = readFileSync(props.schemaPath, 'utf8');
    // A signed-in pool user is not enough: removed, no_access and signed-out users are refused.
    const guard = this.api.addLambdaDataSource('SubscriptionGuard', props.subscriptionGuard, { description: 'Checks subscribers against the user records' });
    NagSuppressions.addResourceSuppressions(
      guard,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'AppSync may invoke the guard function and its versions (<fn arn>:*) only.',
          appliesTo: [{ regex: '/^Resource::<.*SubscriptionGuard.*\\.Arn>:\\*$/g' }],
        },
        { id: 'HIPAA.Security-IAMNoInlinePolicy', reason: INLINE_POLICY_REASON },
      ],
      true,
    );
    for (const fieldName of subscriptionFields(schemaSdl)) {
      guard.createResolver(`Resolver-${fieldName}`, {
        typeName: 'Subscription',
        fieldName,
        runtime: appsync.FunctionRuntime.JS_1_0_0,
        code: appsync.Code.fromInline(SUBSCRIPTION_GUARD_CODE),
      });
    }

    const none = this.api.addNoneDataSource('Publish', { description: 'Fans mutation payloads out to subscribers' });
    for (const mutation of publishMutations(schemaSdl)) {
      none.createResolver(`Resolver-${mutation.fieldName}`, {
        typeName: 'Mutation',
        fieldName: mutation.fieldName,
        runtime: appsync.FunctionRuntime.JS_1_0_0,
        code: appsync.Code.fromInline(passThroughCode(mutation)),
      });
    }
  }

  /** The publisher signs its mutations with SigV4 (IAM auth mode). */
  grantPublish(fn: NodejsFunction): void {
    // Named fields, not Mutation/*: a publisher may call exactly the publish mutations.
    this.api.grantMutation(fn, 'createNotification', 'updateNotification');
    fn.addEnvironment('APPSYNC_URL', this.api.graphqlUrl);
  }
}
