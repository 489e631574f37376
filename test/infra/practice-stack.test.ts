import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEXES, TABLE_PARTITION_KEY, TABLE_SORT_KEY, TTL_ATTRIBUTE } from '../../functions/lib/table/definition.js';
import { deployedRoutes } from '../../functions/lib/http/deployed-routes.js';
import { BUDGETS } from '../../scripts/budgets/budgets.js';
import { NONCURRENT_EXPIRATION_DAYS, NONCURRENT_TRANSITION_DAYS } from '../../infra/lib/files.js';
import { TRANSCRIPTION_STATES, transcriptionDefinition } from '../../infra/lib/transcription/transcription-definition.js';
import { fhirExportDefinition } from '../../infra/lib/fhir-export/fhir-export-definition.js';
import { CONTENT_SECURITY_POLICY, FRAME_OPTIONS, HSTS, REFERRER_POLICY } from '../../infra/lib/web-security-headers.js';
import * as z from '../../shared/zod.js';
import { synthPracticeStack, type SynthesizedPractice } from './synth-practice-stack.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

let practice: SynthesizedPractice;
let resources: Record<string, Resource>;

function ofType(type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

function only(type: string): [string, Resource] {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0];
}

/** The Fetch standard's CORS-safelisted request headers: a browser sends them without asking the preflight. */
function corsSafelisted(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  if (lower === 'content-type')
    return ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'].includes(value.split(';')[0].trim().toLowerCase());
  return ['accept', 'accept-language', 'content-language'].includes(lower) && value.length <= 128;
}

/** CloudFormation references inside a value, as logical ids (Ref and Fn::GetAtt). */
function referencedIds(value: unknown): string[] {
  const json = JSON.stringify(value);
  return [...json.matchAll(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
}

beforeAll(() => {
  practice = synthPracticeStack();
  resources = practice.template.toJSON().Resources;
}, 120_000);

describe('practice stack', () => {
  it('is named after the practice: its data stack and its app stack', () => {
    expect(practice.dataStack.stackName).toBe('Tidewell-demo-data');
    expect(practice.stack.stackName).toBe('Tidewell-demo-app');
  });

  describe('table', () => {
    it('has the keys and indexes of the shared table definition', () => {
      const [, table] = only('AWS::DynamoDB::Table');
      expect(table.Properties.KeySchema).toEqual([
        { AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' },
        { AttributeName: TABLE_SORT_KEY, KeyType: 'RANGE' },
      ]);
      const indexes = table.Properties.GlobalSecondaryIndexes.map((i: any) => ({ name: i.IndexName, keys: i.KeySchema, projection: i.Projection })); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(indexes).toEqual(
        Object.values(INDEXES).map((i) => ({
          name: i.indexName,
          keys: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          projection: { ProjectionType: 'ALL' },
        })),
      );
    });

    it('is protected: PITR, deletion protection, retained, KMS customer key, TTL, stream', () => {
      const [, table] = only('AWS::DynamoDB::Table');
      expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
      const [keyId] = referencedIds(table.Properties.SSESpecification.KMSMasterKeyId);
      expect(resources[keyId].Type).toBe('AWS::KMS::Key');
      expect(resources[keyId].Properties.EnableKeyRotation).toBe(true);
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
      expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    });

    it('is in a backup plan', () => {
      const [, selection] = only('AWS::Backup::BackupSelection');
      const [tableId] = ofType('AWS::DynamoDB::Table')[0];
      expect(referencedIds(selection.Properties.BackupSelection.Resources)).toContain(tableId);
    });
  });

  describe('buckets', () => {
    it('every bucket is private, encrypted, versioned and TLS-only', () => {
      const buckets = ofType('AWS::S3::Bucket');
      expect(buckets.length).toBe(4);
      const policies = ofType('AWS::S3::BucketPolicy');
      for (const [id, bucket] of buckets) {
        expect(bucket.Properties.PublicAccessBlockConfiguration, id).toEqual({
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        });
        expect(bucket.Properties.VersioningConfiguration, id).toEqual({ Status: 'Enabled' });
        expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm, id).toMatch(
          /^(aws:kms|AES256)$/,
        );
        const policy = policies.find(([, p]) => referencedIds(p.Properties.Bucket).includes(id));
        expect(policy, `${id} policy`).toBeDefined();
        expect(policy![1].Properties.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        );
      }
    });

    it("the files bucket uses its KMS key, logs access and allows the web app's origins to PUT/GET/HEAD", () => {
      const [, files] = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('FilesBucket'))!;
      const encryption = files.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0];
      expect(encryption.ServerSideEncryptionByDefault.SSEAlgorithm).toBe('aws:kms');
      expect(referencedIds(encryption.ServerSideEncryptionByDefault.KMSMasterKeyID)[0]).toMatch(/^FilesKey/);
      expect(referencedIds(files.Properties.LoggingConfiguration.DestinationBucketName)[0]).toMatch(/^AccessLogsBucket/);
      const [rule] = files.Properties.CorsConfiguration.CorsRules;
      expect(rule.AllowedMethods.sort()).toEqual(['GET', 'HEAD', 'PUT']);
      // The app's CloudFront domain is the app stack's, which the data stack never names (practice-stacks.test.ts).
      expect(rule.AllowedOrigins).toEqual(['https://*.cloudfront.net']);
    });

    it('the files bucket keeps versions, with a lifecycle for old versions', () => {
      const [, files] = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('FilesBucket'))!;
      expect(files.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      const rules = files.Properties.LifecycleConfiguration.Rules as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
      const old = rules.find((r) => r.NoncurrentVersionExpiration);
      expect(old).toMatchObject({
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_EXPIRATION_DAYS },
        NoncurrentVersionTransitions: [{ StorageClass: 'GLACIER_IR', TransitionInDays: NONCURRENT_TRANSITION_DAYS }],
      });
    });
  });

  describe('user pool', () => {
    it('is admin-managed, signs in by email, requires strong passwords, offers TOTP MFA and enforces threat protection', () => {
      const [, pool] = only('AWS::Cognito::UserPool');
      expect(pool.Properties.AdminCreateUserConfig).toEqual({ AllowAdminCreateUserOnly: true });
      expect(pool.Properties.UsernameAttributes).toEqual(['email']);
      expect(pool.Properties.Policies.PasswordPolicy).toMatchObject({
        RequireLowercase: true,
        RequireUppercase: true,
        RequireNumbers: true,
        RequireSymbols: true,
      });
      expect(pool.Properties.Policies.PasswordPolicy.MinimumLength).toBeGreaterThanOrEqual(12);
      expect(pool.Properties.MfaConfiguration).toBe('OPTIONAL');
      expect(pool.Properties.EnabledMfas).toEqual(['SOFTWARE_TOKEN_MFA']);
      expect(pool.Properties.UserPoolTier).toBe('PLUS');
      expect(pool.Properties.UserPoolAddOns).toEqual({ AdvancedSecurityMode: 'ENFORCED' });
      expect(pool.Properties.Schema).toContainEqual(expect.objectContaining({ Name: 'practiceId', AttributeDataType: 'String', Mutable: false }));
    });

    it('has the four role groups', () => {
      expect(
        ofType('AWS::Cognito::UserPoolGroup')
          .map(([, g]) => g.Properties.GroupName)
          .sort(),
      ).toEqual(['admin', 'employee', 'no_access', 'provider', 'super_user']);
    });

    it('gives ID and access tokens at most 60 minutes, with revocation on', () => {
      const [, client] = only('AWS::Cognito::UserPoolClient');
      const minutes = (value: number, unit: string) => (unit === 'hours' ? value * 60 : unit === 'minutes' ? value : value / 60);
      expect(minutes(client.Properties.IdTokenValidity, client.Properties.TokenValidityUnits.IdToken)).toBeLessThanOrEqual(60);
      expect(minutes(client.Properties.AccessTokenValidity, client.Properties.TokenValidityUnits.AccessToken)).toBeLessThanOrEqual(60);
      expect(client.Properties.EnableTokenRevocation).toBe(true);
      expect(client.Properties.PreventUserExistenceErrors).toBe('ENABLED');
    });

    it('lets only the practice Lambda change users in the pool, with exactly the admin actions it needs, on this pool', () => {
      const [poolId] = only('AWS::Cognito::UserPool');
      const statements = ofType('AWS::IAM::Policy').flatMap(([, p]) =>
        (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).map((st) => ({
          roles: referencedIds(p.Properties.Roles),
          ...st,
        })),
      );
      const poolAdmin = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith('cognito-idp:Admin') && a !== 'cognito-idp:AdminGetUser'));
      expect(poolAdmin).toHaveLength(1);
      expect([poolAdmin[0].Action].flat().sort()).toEqual([
        'cognito-idp:AdminAddUserToGroup',
        'cognito-idp:AdminDisableUser',
        'cognito-idp:AdminEnableUser',
        'cognito-idp:AdminListGroupsForUser',
        'cognito-idp:AdminRemoveUserFromGroup',
        'cognito-idp:AdminSetUserMFAPreference',
        'cognito-idp:AdminUserGlobalSignOut',
      ]);
      expect(referencedIds(poolAdmin[0].Resource)).toEqual([poolId]);
      const [practiceFnId, practiceFn] = ofType('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === 'Tidewell practice endpoints (demo)')!;
      expect(referencedIds(practiceFn.Properties.Role)[0]).toBe(poolAdmin[0].roles[0]);
      expect(referencedIds(practiceFn.Properties.Environment.Variables.USER_POOL_ID)).toEqual([poolId]);
      expect(practiceFnId).toBeTruthy();
    });

    it('has a public web client that signs in with SRP only and cannot write practiceId', () => {
      const [, client] = only('AWS::Cognito::UserPoolClient');
      expect(client.Properties.GenerateSecret).toBe(false);
      expect(client.Properties.ExplicitAuthFlows.sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH']);
      expect(client.Properties.ReadAttributes).toContain('custom:practiceId');
      expect(client.Properties.WriteAttributes).not.toContain('custom:practiceId');
    });
  });

  describe('HTTP API', () => {
    function groupFunction(name: string): [string, Resource] {
      const found = ofType('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === `Tidewell ${name} endpoints (demo)`);
      expect(found, name).toBeDefined();
      return found!;
    }

    it('has one Node.js 22 arm64 Lambda per endpoint group with the practice id from config', () => {
      const [tableId] = ofType('AWS::DynamoDB::Table')[0];
      for (const group of practice.groups) {
        const [, fn] = groupFunction(group.name);
        expect(fn.Properties.Runtime).toBe('nodejs22.x');
        expect(fn.Properties.Architectures).toEqual(['arm64']);
        expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
        const env = fn.Properties.Environment.Variables;
        expect(env.PRACTICE_ID).toBe(practice.config.practiceId);
        expect(env.NODE_OPTIONS).toBe('--enable-source-maps');
        expect(referencedIds(env.TABLE_NAME)).toEqual([tableId]);
        expect(referencedIds(env.FILES_BUCKET)[0]).toMatch(/^FilesBucket/);
      }
    });

    it('registers the route keys each group deploys (greedy where safe) on that group Lambda behind the Cognito JWT authorizer', () => {
      const [authorizerId, authorizer] = only('AWS::ApiGatewayV2::Authorizer');
      expect(authorizer.Properties.AuthorizerType).toBe('JWT');
      expect(authorizer.Properties.IdentitySource).toEqual(['$request.header.Authorization']);
      const [clientId] = only('AWS::Cognito::UserPoolClient');
      const [poolId] = only('AWS::Cognito::UserPool');
      expect(referencedIds(authorizer.Properties.JwtConfiguration.Audience)).toEqual([clientId]);
      const issuer = JSON.stringify(authorizer.Properties.JwtConfiguration.Issuer);
      expect(issuer).toContain('https://cognito-idp.us-east-1.amazonaws.com/');
      expect(referencedIds(authorizer.Properties.JwtConfiguration.Issuer)).toEqual([poolId]);

      const routes = ofType('AWS::ApiGatewayV2::Route');
      // Greedy keys stand for many routes; each group's handler resolves them (deployed-routes.ts).
      const deployed = deployedRoutes(practice.groups);
      expect(routes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(deployed.flatMap((g) => g.routes).sort());
      expect(routes.length).toBeLessThan(practice.groups.flatMap((g) => g.routes).length);
      expect(deployed.some((g) => g.signed)).toBe(true);
      for (const group of deployed) {
        const [fnId] = groupFunction(group.group);
        for (const routeKey of group.routes) {
          const [, route] = routes.find(([, r]) => r.Properties.RouteKey === routeKey)!;
          if (group.signed) {
            // A partner's delivery carries its HMAC signature, checked by the handler; no user token.
            expect(route.Properties.AuthorizationType ?? 'NONE', routeKey).toBe('NONE');
            expect(route.Properties.AuthorizerId).toBeUndefined();
          } else {
            expect(route.Properties.AuthorizationType, routeKey).toBe('JWT');
            expect(referencedIds(route.Properties.AuthorizerId)).toEqual([authorizerId]);
          }
          const [integrationId] = referencedIds(route.Properties.Target);
          const integration = resources[integrationId];
          expect(integration.Properties.PayloadFormatVersion).toBe('2.0');
          expect(referencedIds(integration.Properties.IntegrationUri), routeKey).toEqual([fnId]);
        }
      }
    });

    it('gives each group Lambda exactly one invoke permission, for the whole HTTP API, so new routes add no permissions', () => {
      const [apiId] = only('AWS::ApiGatewayV2::Api');
      const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com');
      for (const group of practice.groups) {
        const [fnId] = groupFunction(group.name);
        const own = permissions.filter(([, p]) => referencedIds(p.Properties.FunctionName).includes(fnId));
        expect(own, group.name).toHaveLength(1);
        const [, permission] = own[0];
        expect(permission.Properties.Action).toBe('lambda:InvokeFunction');
        expect(referencedIds(permission.Properties.SourceArn)).toContain(apiId);
        expect(JSON.stringify(permission.Properties.SourceArn)).toMatch(/\/\*\/\*"/);
      }
    });

    it('lets only the notes and patients Lambdas send email (email notes, the HIPAA waiver request), through SES from the practice identity, with the sender in their environment', () => {
      const email = practice.config.email!;
      expect(email).toEqual({ identity: 'demo.tidewell.local', fromAddress: 'notes@demo.tidewell.local' });
      const sesStatements = ofType('AWS::IAM::Policy').flatMap(([, p]) =>
        p.Properties.PolicyDocument.Statement.filter((st: { Action: string | string[] }) => [st.Action].flat().some((a) => a.startsWith('ses:'))).map(
          (st: Record<string, unknown>) => ({ roles: referencedIds(p.Properties.Roles), statement: st }),
        ),
      );
      const [notesId, notes] = groupFunction('notes');
      const notesRole = referencedIds(notes.Properties.Role)[0];
      const [, patients] = groupFunction('patients');
      const patientsRole = referencedIds(patients.Properties.Role)[0];
      expect(sesStatements).toHaveLength(2);
      expect(sesStatements.map((s: { roles: string[] }) => s.roles[0]).sort()).toEqual([notesRole, patientsRole].sort());
      expect(sesStatements[1].statement).toEqual(sesStatements[0].statement);
      expect(sesStatements[0].statement).toMatchObject({
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Condition: { StringLike: { 'ses:FromAddress': '*@demo.tidewell.local' } },
      });
      const resource = JSON.stringify(sesStatements[0].statement.Resource);
      expect(resource).toContain(':ses:us-east-1:111122223333:identity/demo.tidewell.local');
      expect(resource).not.toContain('*');

      expect(notes.Properties.Environment.Variables).toMatchObject({
        EMAIL_TRANSPORT: 'ses',
        EMAIL_IDENTITY: 'demo.tidewell.local',
        EMAIL_FROM_ADDRESS: 'notes@demo.tidewell.local',
      });
      expect(patients.Properties.Environment.Variables).toMatchObject({ EMAIL_TRANSPORT: 'ses', EMAIL_FROM_ADDRESS: 'notes@demo.tidewell.local' });
      for (const group of practice.groups.filter((g) => g.name !== 'notes' && g.name !== 'patients')) {
        const [id, fn] = groupFunction(group.name);
        expect(id).not.toBe(notesId);
        expect(fn.Properties.Environment.Variables, group.name).not.toHaveProperty('EMAIL_TRANSPORT');
      }
    });

    it('has a throttled, access-logged $default stage and CORS for the web origin only', () => {
      const [, stage] = only('AWS::ApiGatewayV2::Stage');
      expect(stage.Properties.StageName).toBe('$default');
      expect(stage.Properties.AutoDeploy).toBe(true);
      expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) });
      expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey' });
      const [, api] = only('AWS::ApiGatewayV2::Api');
      expect(api.Properties.ProtocolType).toBe('HTTP');
      expect(referencedIds(api.Properties.CorsConfiguration.AllowOrigins)[0]).toMatch(/^WebDistribution/);
      expect(api.Properties.CorsConfiguration.AllowHeaders).toEqual(['authorization', 'content-type']);
    });

    // The web app and the API are different origins in AWS (CloudFront and execute-api), unlike the
    // local runtime: a header or method the preflight does not allow fails every call in the browser.
    it("lets through every header and method the web app's API client sends, as a browser's preflight checks them", async () => {
      const { createApiClient } = await import('../../web/src/lib/api-client.js');
      const sent: { method: string; headers: Record<string, string> }[] = [];
      const request = createApiClient({
        apiUrl: () => 'https://abc123.execute-api.us-east-1.amazonaws.com',
        idToken: async () => 'id-token',
        onUnauthorized: async () => undefined,
        fetchImpl: async (_url, init) => {
          sent.push({ method: String(init?.method), headers: init?.headers as Record<string, string> });
          return new Response('{}', { status: 200 });
        },
      });
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
      for (const method of methods) await request({ method, path: '/v1/patients', body: method === 'GET' ? undefined : { a: 1 } }, z.unknown());
      const [, api] = only('AWS::ApiGatewayV2::Api');
      const cors = api.Properties.CorsConfiguration;
      expect(sent.map((s) => s.method)).toEqual([...methods]);
      for (const { method, headers } of sent) {
        expect(cors.AllowMethods, method).toContain(method);
        const preflighted = Object.entries(headers)
          .filter(([name, value]) => !corsSafelisted(name, value))
          .map(([name]) => name.toLowerCase());
        expect(preflighted, method).toContain('authorization');
        for (const name of preflighted) expect(cors.AllowHeaders, `${method} sends ${name}`).toContain(name);
      }
    });
  });

  describe('notifications API', () => {
    it('authorises subscribers with the user pool and publishers with IAM', () => {
      const [, api] = only('AWS::AppSync::GraphQLApi');
      expect(api.Properties.AuthenticationType).toBe('AMAZON_COGNITO_USER_POOLS');
      expect(api.Properties.AdditionalAuthenticationProviders).toEqual([{ AuthenticationType: 'AWS_IAM' }]);
      expect(api.Properties.LogConfig).toMatchObject({ FieldLogLevel: 'ERROR' });
      expect(api.Properties.XrayEnabled).toBe(true);
      const [, schema] = only('AWS::AppSync::GraphQLSchema');
      expect(schema.Properties.Definition).toContain('onCreateNotification(practiceId: String!)');
      expect(schema.Properties.Definition).toContain('onUpdateNotification(practiceId: String!)');
    });

    it('resolves each publish mutation with a pass-through NONE data source', () => {
      const [, dataSource] = ofType('AWS::AppSync::DataSource').find(([, d]) => d.Properties.Type === 'NONE')!;
      const resolvers = ofType('AWS::AppSync::Resolver')
        .map(([, r]) => r.Properties)
        .filter((r) => r.TypeName === 'Mutation');
      expect(resolvers.map((r) => `${r.TypeName}.${r.FieldName}`).sort()).toEqual(['Mutation.createNotification', 'Mutation.updateNotification']);
      for (const resolver of resolvers) {
        expect(resolver.DataSourceName).toBe(dataSource.Properties.Name);
        expect(resolver.Code).toContain('payload: ctx.args.input');
      }
    });

    it('checks every subscription with the guard Lambda, which reads the user records and the pool', () => {
      const [, dataSource] = ofType('AWS::AppSync::DataSource').find(([, d]) => d.Properties.Type === 'AWS_LAMBDA')!;
      const subscriptions = ofType('AWS::AppSync::Resolver')
        .map(([, r]) => r.Properties)
        .filter((r) => r.TypeName === 'Subscription');
      expect(subscriptions.map((r) => r.FieldName).sort()).toEqual(['onCreateNotification', 'onUpdateNotification']);
      for (const resolver of subscriptions) {
        expect(resolver.DataSourceName).toBe(dataSource.Properties.Name);
        expect(resolver.Code).toContain('util.unauthorized()');
      }
      const guardId = referencedIds(dataSource.Properties.LambdaConfig)[0];
      const guard = resources[guardId];
      expect(guard.Properties.Description).toBe('Tidewell realtime subscription access check (demo)');
      expect(guard.Properties.Environment.Variables.PRACTICE_ID).toBe(practice.config.practiceId);
      const policies = JSON.stringify(
        ofType('AWS::IAM::Policy').filter(([, p]) => referencedIds(p.Properties.Roles).some((id) => id.startsWith('SubscriptionGuardRole'))),
      );
      expect(policies).toContain('cognito-idp:AdminGetUser');
    });
  });

  describe('practice FHIR export state machine', () => {
    it("deploys the shared definition on the chart group's function, and lets only the practice group start and follow it", () => {
      const [machineId, machine] = ofType('AWS::StepFunctions::StateMachine').find(([, m]) => m.Properties.StateMachineName === 'tidewell-demo-fhir-export')!;
      expect(machine.Properties.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
      const parts: unknown[] = machine.Properties.DefinitionString['Fn::Join'][1];
      const definition = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'WORKER')).join(''));
      expect(definition).toEqual(fhirExportDefinition({ worker: 'WORKER' }));
      const [workerId] = referencedIds(parts.filter((p) => typeof p !== 'string'));
      expect(resources[workerId].Properties.Description).toBe('Tidewell chart endpoints (demo)');
      const starters = ofType('AWS::Lambda::Function').filter(([, f]) =>
        JSON.stringify(f.Properties.Environment ?? {}).includes('FHIR_EXPORT_STATE_MACHINE_ARN'),
      );
      expect(starters.map(([, f]) => f.Properties.Description)).toEqual(['Tidewell practice endpoints (demo)']);
      const roleId = referencedIds(starters[0]![1].Properties.Role)[0];
      const policies = JSON.stringify(ofType('AWS::IAM::Policy').filter(([, p]) => referencedIds(p.Properties.Roles).includes(roleId)));
      expect(policies).toContain('states:StartExecution');
      expect(policies).toContain('states:DescribeExecution');
      expect(policies).toContain(machineId);
    });
  });

  describe('transcription state machine', () => {
    it('deploys the shared definition with the worker Lambda, logging and X-Ray', () => {
      expect(
        ofType('AWS::StepFunctions::StateMachine')
          .map(([, m]) => m.Properties.StateMachineName)
          .sort(),
      ).toEqual(['tidewell-demo-fhir-export', 'tidewell-demo-transcription']);
      const [, machine] = ofType('AWS::StepFunctions::StateMachine').find(([, m]) => m.Properties.StateMachineName === 'tidewell-demo-transcription')!;
      expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
      expect(machine.Properties.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
      const parts: unknown[] = machine.Properties.DefinitionString['Fn::Join'][1];
      const definition = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'WORKER')).join(''));
      expect(Object.keys(definition.States).sort()).toEqual(Object.values(TRANSCRIPTION_STATES).sort());
      // The deployed machine is, state for state, the object the local runtime executes.
      expect(definition).toEqual(transcriptionDefinition({ worker: 'WORKER' }));
      const [workerId] = referencedIds(parts.filter((p) => typeof p !== 'string'));
      expect(resources[workerId].Properties.Description).toBe('Tidewell transcription steps (demo)');
    });

    it('lets the worker read and write the table and the files bucket and run Transcribe jobs, with the AWS engines selected', () => {
      const [workerId, worker] = ofType('AWS::Lambda::Function').find(([, f]) => f.Properties.Description === 'Tidewell transcription steps (demo)')!;
      expect(worker.Properties.Environment.Variables).toMatchObject({ TRANSCRIPTION_ENGINE: 'aws' });
      expect(worker.Properties.Timeout).toBe(300);
      const roleId = referencedIds(worker.Properties.Role)[0];
      const policies = JSON.stringify(ofType('AWS::IAM::Policy').filter(([, p]) => referencedIds(p.Properties.Roles).includes(roleId)));
      for (const action of ['transcribe:StartTranscriptionJob', 'transcribe:GetTranscriptionJob', 'dynamodb:PutItem', 's3:PutObject'])
        expect(policies, workerId).toContain(action);
      // No ai block in practices/demo.json: no model may be invoked.
      expect(policies).not.toContain('bedrock:InvokeModel');
      expect(worker.Properties.Environment.Variables.BEDROCK_MODEL_ID).toBeUndefined();
    });

    it('routes the transcription API to the ai group, which may start and describe executions', () => {
      const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
      expect(routes.some((k) => k.startsWith('POST /v1/transcriptions') || k.startsWith('ANY /v1/transcriptions'))).toBe(true);
      const [, ai] = ofType('AWS::Lambda::Function').find(([, f]) => String(f.Properties.Description).includes('ai'))!;
      expect(ai.Properties.Environment.Variables.TRANSCRIPTION_STATE_MACHINE_ARN).toBeDefined();
    });
  });

  describe('scheduler', () => {
    it('has the practice schedule group, an encrypted TLS-only dead-letter queue and the invoke role Scheduler assumes', () => {
      const [, group] = only('AWS::Scheduler::ScheduleGroup');
      expect(group.Properties.Name).toBe('tidewell-demo');
      const [queueId, queue] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('SchedulerDeadLetters'))!;
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      const [, queuePolicy] = ofType('AWS::SQS::QueuePolicy').find(([, p]) => referencedIds(p.Properties.Queues).includes(queueId))!;
      expect(queuePolicy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );

      const [roleId, role] = ofType('AWS::IAM::Role').find(([, r]) =>
        JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
      )!;
      expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Condition.StringEquals).toHaveProperty('aws:SourceAccount');
      const [, policy] = ofType('AWS::IAM::Policy').find(([, p]) => referencedIds(p.Properties.Roles).includes(roleId))!;
      const actions = policy.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat());
      expect(actions).toEqual(expect.arrayContaining(['lambda:InvokeFunction', 'sqs:SendMessage']));
      const [targetId] = ofType('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === 'Tidewell scheduled sends (demo)')!;
      expect(referencedIds(policy.Properties.PolicyDocument)).toContain(targetId);
    });

    it("lets the target schedule its own next run (a series' next reminder) and the practice and chart groups book reminders (the chart group for imported appointments), without the target naming itself in its environment", () => {
      const fnBy = (description: string) => ofType('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === description)!;
      const roleOf = (fn: Resource) => referencedIds(fn.Properties.Role)[0];
      const schedulingActions = (fn: Resource) =>
        ofType('AWS::IAM::Policy')
          .filter(([, p]) => referencedIds(p.Properties.Roles).includes(roleOf(fn)))
          .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()))
          .filter((a: string) => a.startsWith('scheduler:') || a === 'iam:PassRole');
      const [, target] = fnBy('Tidewell scheduled sends (demo)');
      const [, practiceGroup] = fnBy('Tidewell practice endpoints (demo)');
      const [, chartGroup] = fnBy('Tidewell chart endpoints (demo)');
      for (const fn of [target, practiceGroup, chartGroup]) {
        expect(schedulingActions(fn)).toEqual(
          expect.arrayContaining(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule', 'iam:PassRole']),
        );
        expect(fn.Properties.Environment.Variables).toMatchObject({ SCHEDULER_GROUP: 'tidewell-demo' });
      }
      expect(target.Properties.Environment.Variables).not.toHaveProperty('SCHEDULER_TARGET_ARN');
      expect(practiceGroup.Properties.Environment.Variables).toHaveProperty('SCHEDULER_TARGET_ARN');
      expect(chartGroup.Properties.Environment.Variables).toHaveProperty('SCHEDULER_TARGET_ARN');
      // An imported appointment goes to the provider's Google Calendar too: the chart group reads the partner secret's OAuth client.
      expect(chartGroup.Properties.Environment.Variables.PARTNER_SECRETS_ARN).toBeDefined();
      const chartRoleId = referencedIds(chartGroup.Properties.Role)[0];
      expect(JSON.stringify(ofType('AWS::IAM::Policy').filter(([, p]) => referencedIds(p.Properties.Roles).includes(chartRoleId)))).toContain(
        'secretsmanager:GetSecretValue',
      );
    });

    it('runs the DoseSpot sync every hour on the same target, role and dead-letter queue, and lets the target read the partner secret', () => {
      const [, schedule] = only('AWS::Scheduler::Schedule');
      const [targetId, target] = ofType('AWS::Lambda::Function').find(([, fn]) => fn.Properties.Description === 'Tidewell scheduled sends (demo)')!;
      const [roleId] = ofType('AWS::IAM::Role').find(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'))!;
      const [queueId] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith('SchedulerDeadLetters'))!;
      expect(schedule.Properties).toMatchObject({ Name: 'dosespot-sync', GroupName: 'tidewell-demo', ScheduleExpression: 'rate(1 hour)', State: 'ENABLED' });
      expect(JSON.parse(schedule.Properties.Target.Input)).toEqual({ kind: 'syncPatientRx' });
      expect(referencedIds(schedule.Properties.Target.Arn)).toEqual([targetId]);
      expect(referencedIds(schedule.Properties.Target.RoleArn)).toEqual([roleId]);
      expect(referencedIds(schedule.Properties.Target.DeadLetterConfig.Arn)).toEqual([queueId]);
      expect(schedule.Properties.Target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 1800 });
      expect(target.Properties.Environment.Variables.PARTNER_SECRETS_ARN).toBeDefined();
      const targetRoleId = referencedIds(target.Properties.Role)[0];
      const policies = JSON.stringify(ofType('AWS::IAM::Policy').filter(([, p]) => referencedIds(p.Properties.Roles).includes(targetRoleId)));
      expect(policies).toContain('secretsmanager:GetSecretValue');
    });
  });

  describe('web', () => {
    it('serves the private bucket through CloudFront with OAC, SPA fallback, security headers and logging', () => {
      const [, distribution] = only('AWS::CloudFront::Distribution');
      const config = distribution.Properties.DistributionConfig;
      const [oacId, oac] = only('AWS::CloudFront::OriginAccessControl');
      expect(oac.Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' });
      expect(referencedIds(config.Origins[0].OriginAccessControlId)).toEqual([oacId]);
      expect(referencedIds(config.Origins[0].DomainName)[0]).toMatch(/^WebBucket/);
      expect(config.DefaultRootObject).toBe('index.html');
      expect(config.CustomErrorResponses).toEqual(
        [403, 404].map((ErrorCode) => ({ ErrorCode, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 })),
      );
      expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
      expect(config.Logging).toBeDefined();
      const [headersId, headers] = only('AWS::CloudFront::ResponseHeadersPolicy');
      expect(referencedIds(config.DefaultCacheBehavior.ResponseHeadersPolicyId)).toEqual([headersId]);
      const security = headers.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      expect(security.StrictTransportSecurity.Override).toBe(true);
      expect(security.FrameOptions.FrameOption).toBe(FRAME_OPTIONS);
      expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toContain("frame-ancestors 'self'");
      // One header set for CloudFront and the local web origin.
      expect(security.ContentSecurityPolicy.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
      expect(security.ReferrerPolicy.ReferrerPolicy).toBe(REFERRER_POLICY);
      expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(HSTS.maxAgeSeconds);
    });

    it('deploys the app and a config.json built from the stack, and invalidates the distribution', () => {
      const deployments = ofType('Custom::CDKBucketDeployment');
      expect(deployments).toHaveLength(2);
      const entry = deployments.find(([, d]) => d.Properties.DistributionPaths)!;
      expect(entry[1].Properties.DistributionPaths).toEqual(['/*']);
      // Source.jsonData resolves tokens at deploy time through markers: one per stack value.
      const markers = JSON.stringify(entry[1].Properties.SourceMarkers);
      for (const id of ['HttpApi', 'NotificationsApi', 'AuthUserPool', 'WebDistribution', 'FilesBucket']) expect(markers).toContain(id);
      expect(practice.stack.outputs).toMatchObject({ cognitoEndpoint: expect.stringContaining('cognito-idp'), region: 'us-east-1' });
    });
  });

  it(`stays within the budget of ${BUDGETS.stackResources} CloudFormation resources per stack (the limit is 500)`, () => {
    expect(Object.keys(practice.appTemplate.toJSON().Resources).length).toBeLessThanOrEqual(BUDGETS.stackResources);
    expect(Object.keys(practice.dataTemplate.toJSON().Resources).length).toBeLessThanOrEqual(BUDGETS.stackResources);
  });

  it('exports exactly the outputs the local runtime writes to .local/outputs.json', () => {
    const outputs = practice.template.toJSON().Outputs;
    expect(Object.keys(outputs).sort()).toEqual(
      ['apiUrl', 'webUrl', 'graphqlUrl', 'userPoolId', 'userPoolClientId', 'cognitoEndpoint', 'region', 'filesBucket', 'copilotStreamUrl'].sort(),
    );
    expect(referencedIds(outputs.userPoolId.Value)[0]).toMatch(/^AuthUserPool/);
    expect(referencedIds(outputs.filesBucket.Value)[0]).toMatch(/^FilesBucket/);
  });

  describe('cdk-nag', () => {
    for (const pack of ['AwsSolutions', 'HIPAA.Security']) {
      it(`reports no unsuppressed ${pack} errors or warnings in either stack`, () => {
        const pattern = Match.stringLikeRegexp(`^${pack.replace('.', '\\.')}-`);
        const findings = [practice.dataStack, practice.stack].flatMap((stack) => {
          const annotations = Annotations.fromStack(stack);
          return [...annotations.findError('*', pattern), ...annotations.findWarning('*', pattern)];
        });
        expect(findings.map((f) => `${f.id}: ${String(f.entry.data).split(':')[0]}`)).toEqual([]);
      });
    }
  });
});
