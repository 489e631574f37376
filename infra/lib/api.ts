import { Duration, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { GroupAccess, GroupDefinition } from '../../functions/groups.js';
import { deployedRoutes } from '../../functions/lib/http/deployed-routes.js';
import { API_CORS_ALLOW_HEADERS, API_CORS_ALLOW_METHODS, API_CORS_MAX_AGE_SECONDS } from './api-cors.js';
import { suppressGuardRules } from './guard.js';
import { grantTableReadWrite, tidewellFunction } from './lambda-function.js';
import type { Logging } from './logging.js';

/** Grants one kind of access (and its environment) to a group's function. */
export type AccessGrant = (fn: NodejsFunction, apiUrl: string) => void;

export interface ApiProps {
  slug: string;
  practiceId: string;
  groups: readonly GroupDefinition[];
  table: dynamodb.ITable;
  filesBucketName: string;
  userPool: cognito.IUserPool;
  client: cognito.IUserPoolClient;
  webOrigins: string[];
  logging: Logging;
  access: Record<GroupAccess, AccessGrant>;
  /** What every group function needs for the practice's MFA rule (Auth.grantMfaCheck). */
  mfaCheck: (fn: NodejsFunction) => void;
}

const HTTP_METHODS = new Set(Object.values(apigwv2.HttpMethod) as string[]);

/** 'GET /v1/patients/{patientId}' → method and path, as API Gateway HTTP API route keys are written. */
export function parseRouteKey(routeKey: string): { method: apigwv2.HttpMethod; path: string } {
  const match = /^([A-Z]+) (\/\S*)$/.exec(routeKey);
  if (!match || !HTTP_METHODS.has(match[1])) throw new Error(`Invalid route key: ${routeKey}`);
  return { method: match[1] as apigwv2.HttpMethod, path: match[2] };
}

/** Access log fields: request metadata only (route keys, not paths, so no identifiers leak). */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  sub: '$context.authorizer.claims.sub',
});

/** The HTTP API: a JWT authorizer on the practice's user pool and one Lambda per endpoint group. */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  readonly functions = new Map<string, NodejsFunction>();
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `tidewell-${props.slug}`,
      description: `Tidewell API for practice ${props.slug}`,
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: props.webOrigins,
        allowMethods: API_CORS_ALLOW_METHODS.map((method) => apigwv2.CorsHttpMethod[method]),
        allowHeaders: API_CORS_ALLOW_HEADERS,
        maxAge: Duration.seconds(API_CORS_MAX_AGE_SECONDS),
      },
    });
    const accessLogs = props.logging.logGroup(this, 'AccessLogs');
    this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 200, burstLimit: 400 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });
    this.url = this.httpApi.apiEndpoint;

    // Same checks as the local API: signature (JWKS), issuer, audience (the web client), expiry.
    const issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${props.userPool.userPoolId}`;
    const authorizer = new HttpJwtAuthorizer('CognitoJwt', issuer, {
      jwtAudience: [props.client.userPoolClientId],
      identitySource: ['$request.header.Authorization'],
    });

    // Greedy keys stand for many routes (each route is a stack resource); the group's handler resolves them.
    const deployed = deployedRoutes(props.groups);
    for (const group of props.groups) {
      const fn = tidewellFunction(this, `Group-${group.name}`, {
        entry: group.entry,
        logging: props.logging,
        description: `Tidewell ${group.name} endpoints (${props.slug})`,
        memoryMb: group.memoryMb,
        timeoutSeconds: group.timeoutSeconds,
        environment: {
          TABLE_NAME: props.table.tableName,
          // The practice comes from the stack, never from a request.
          PRACTICE_ID: props.practiceId,
          FILES_BUCKET: props.filesBucketName,
        },
      });
      grantTableReadWrite(fn, props.table);
      props.mfaCheck(fn);
      for (const access of group.access ?? []) props.access[access](fn, this.httpApi.apiEndpoint);
      this.functions.set(group.name, fn);

      const integration = new HttpLambdaIntegration(`Integration-${group.name}`, fn, {
        payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
        // One invoke permission for the whole API instead of one per route: a permission per
        // route was a third of the stack and would push it past CloudFormation's 500 resources.
        scopePermissionToRoute: false,
      });
      for (const { routes, signed } of deployed.filter((d) => d.group === group.name)) {
        for (const routeKey of routes) {
          const { method, path } = parseRouteKey(routeKey);
          // Construct ids cannot hold "/"; "|" keeps the id unique per route key, so logical ids stay stable.
          const route = new apigwv2.HttpRoute(this, `Route ${routeKey.replace(/\//g, '|')}`, {
            httpApi: this.httpApi,
            routeKey: apigwv2.HttpRouteKey.with(path, method),
            integration,
            // A partner's delivery carries its HMAC signature, which the handler checks, not a user's token.
            ...(signed ? {} : { authorizer }),
          });
          if (signed) {
            NagSuppressions.addResourceSuppressions(route, [
              {
                id: 'AwsSolutions-APIG4',
                reason:
                  "A partner's signed delivery: the handler verifies its HMAC signature (per-partner secret) and timestamp before reading the body; partners hold no user token.",
              },
            ]);
            suppressGuardRules(route, [
              {
                rule: 'api_gw_v2_authorization_type_configured_check',
                reason:
                  "CT.APIGATEWAY.PR.5: the caller holds no user token. A partner's delivery is checked by the handler against its HMAC signature (per-partner secret) and timestamp before the body is read; a calendar app's feed request carries the provider's revocable feed token in the path, which the handler looks up before answering.",
              },
            ]);
          }
          // The API's one invoke permission sits on the first route of each integration.
          for (const permission of route.node.children.filter((c): c is lambda.CfnPermission => c instanceof lambda.CfnPermission)) {
            suppressGuardRules(permission, [
              {
                rule: 'lambda_function_public_access_prohibited_check',
                reason:
                  "CT.LAMBDA.PR.2: the permission names API Gateway as principal and this HTTP API's execute-api ARN (in this account) as SourceArn; guard cannot read the ARN, which CloudFormation joins from the API id at deploy time.",
              },
            ]);
          }
        }
      }
    }
  }
}
