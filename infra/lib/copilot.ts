import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { suppressGuardRules } from './guard.js';
import type { PracticeAi } from '../config/practice-config.js';

export interface CopilotProps {
  ai?: PracticeAi;
  userPool: cognito.IUserPool;
  client: cognito.IUserPoolClient;
  webOrigins: string[];
}

/**
 * What the ai group needs beyond the table: its Bedrock model (only when the practice configured
 * one; otherwise the Copilot answers 'ECS AI endpoint not configured') and a function URL that
 * streams the Copilot's reply. No new function: the group's own Lambda serves both.
 */
export class Copilot {
  streamUrl: string | undefined;

  constructor(private readonly props: CopilotProps) {}

  /** AI_MODEL_ID/AI_REGION and invoke rights on that model only (a cross-region inference profile also on its foundation model). */
  grantModel(fn: NodejsFunction): void {
    const ai = this.props.ai;
    if (!ai) return;
    const stack = Stack.of(fn);
    const region = ai.region ?? stack.region;
    fn.addEnvironment('AI_MODEL_ID', ai.modelId);
    fn.addEnvironment('AI_REGION', region);
    const profile = /^(us|eu|apac|global)\./.test(ai.modelId);
    const foundation = profile ? ai.modelId.replace(/^[a-z]+\./, '') : ai.modelId;
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
        resources: [
          // A cross-region profile routes to the model in any of its regions.
          `arn:${stack.partition}:bedrock:${profile ? '*' : region}::foundation-model/${foundation}`,
          ...(profile ? [`arn:${stack.partition}:bedrock:${region}:${stack.account}:inference-profile/${ai.modelId}`] : []),
        ],
      }),
    );
    if (profile) {
      NagSuppressions.addResourceSuppressions(
        fn.role!,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: 'A cross-region inference profile invokes the one configured foundation model in whichever of its regions serves the request.',
            appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:bedrock:\\*::foundation-model\\/.*$/g' }],
          },
        ],
        true,
      );
    }
  }

  /**
   * A function URL in RESPONSE_STREAM mode: API Gateway's HTTP API buffers whole responses. A URL
   * cannot use the API's JWT authorizer, so the handler verifies the same Cognito ID token itself
   * (signature, issuer, audience, expiry) before the request reaches any route.
   */
  addStreamUrl(fn: NodejsFunction): void {
    const stack = Stack.of(fn);
    fn.addEnvironment('COGNITO_ISSUER', `https://cognito-idp.${stack.region}.amazonaws.com/${this.props.userPool.userPoolId}`);
    fn.addEnvironment('USER_POOL_CLIENT_ID', this.props.client.userPoolClientId);
    const url = fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
      cors: {
        allowedOrigins: this.props.webOrigins,
        allowedMethods: [lambda.HttpMethod.POST],
        allowedHeaders: ['authorization', 'content-type', 'x-timezone'],
        maxAge: Duration.hours(1),
      },
    });
    this.streamUrl = url.url;
    const tokenChecked =
      'the function URL (response streaming, which API Gateway cannot carry past 30 s) is reachable without IAM like the HTTP API; the handler refuses any request without a valid Cognito ID token of the practice pool (signature, issuer, audience, expiry) before routing. IAM auth would need browser AWS credentials from a Cognito identity pool.';
    suppressGuardRules(fn, [
      { rule: 'lambda_function_url_auth_check', reason: `CT.LAMBDA.PR.5: ${tokenChecked}` },
      { rule: 'lambda_function_public_access_prohibited_check', reason: `CT.LAMBDA.PR.2: ${tokenChecked}` },
    ]);
    suppressGuardRules(url, [
      {
        rule: 'lambda_function_url_cors_check',
        reason:
          "CT.LAMBDA.PR.6: the allowed origins are the practice's own web origins (https://<its CloudFront domain>, and its webDomain); no wildcard. Guard cannot read the CloudFront domain, which CloudFormation joins in at deploy time.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: 'HIPAA.Security-LambdaFunctionPublicAccessProhibited',
          reason:
            'The function URL (response streaming) is reachable without IAM, like the HTTP API; the handler refuses any request without a valid Cognito ID token of the practice pool before routing.',
        },
      ],
      true,
    );
  }
}
