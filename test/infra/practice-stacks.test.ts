import type { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS } from '../../scripts/budgets/budgets.js';
import { appStackName, dataStackName, UNVERSIONED, VERSION_TAG, versionFromContext } from '../../infra/lib/stack-names.js';
import { exportsOf, synthPracticeStack, type SynthesizedPractice } from './synth-practice-stack.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The stateful resources of the demo practice's data stack, pinned: logical id, type, retention and
 * every property whose change makes CloudFormation replace the resource (a new, empty table or
 * pool in production). The logical ids are those the single practice stack gave them; the
 * construct ids under Tidewell-<slug>-data are unchanged for that reason. Change a pin only on
 * purpose, for a practice that has nothing to lose.
 */
const PINNED: Record<string, { Type: string; retain: 'always' | 'retainData' | 'none'; properties: Record<string, unknown> }> = {
  DataTableFDBAD0F2: {
    Type: 'AWS::DynamoDB::Table',
    retain: 'retainData',
    properties: {
      KeySchema: [
        { AttributeName: 'practiceId', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'practiceId', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
        { AttributeName: 'gsi2pk', AttributeType: 'S' },
        { AttributeName: 'gsi2sk', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    },
  },
  AuthUserPool8115E87F: {
    Type: 'AWS::Cognito::UserPool',
    retain: 'retainData',
    properties: {
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      Schema: [
        { Mutable: true, Name: 'email', Required: true },
        { Mutable: true, Name: 'given_name', Required: false },
        { Mutable: true, Name: 'family_name', Required: false },
        { AttributeDataType: 'String', Mutable: false, Name: 'practiceId', StringAttributeConstraints: { MaxLength: '64', MinLength: '3' } },
      ],
    },
  },
  ...Object.fromEntries(
    (
      [
        ['AuthUserPoolGroupadmin33E4C148', 'admin'],
        ['AuthUserPoolGroupproviderEB34548D', 'provider'],
        ['AuthUserPoolGroupemployeeEC617BB7', 'employee'],
        ['AuthUserPoolGroupnoaccess71A104D8', 'no_access'],
        ['AuthUserPoolGroupsuperuser3C23DFC3', 'super_user'],
      ] as const
    ).map(([id, GroupName]) => [
      id,
      { Type: 'AWS::Cognito::UserPoolGroup', retain: 'none', properties: { UserPoolId: { Ref: 'AuthUserPool8115E87F' }, GroupName } },
    ]),
  ),
  AuthUserPoolWebClient147E4E38: {
    Type: 'AWS::Cognito::UserPoolClient',
    retain: 'none',
    properties: { UserPoolId: { Ref: 'AuthUserPool8115E87F' }, GenerateSecret: false },
  },
  FilesBucket7C17EE2E: { Type: 'AWS::S3::Bucket', retain: 'retainData', properties: {} },
  AccessLogsBucketCD784A59: { Type: 'AWS::S3::Bucket', retain: 'retainData', properties: {} },
  DataKey5F086070: { Type: 'AWS::KMS::Key', retain: 'always', properties: {} },
  FilesKeyF4491C5F: { Type: 'AWS::KMS::Key', retain: 'always', properties: {} },
  LoggingKeyA95093AC: { Type: 'AWS::KMS::Key', retain: 'always', properties: {} },
  AuditArchiveKey780AE008: { Type: 'AWS::KMS::Key', retain: 'always', properties: {} },
  // Object Lock can only be set when the bucket is created: a change would mean a new, empty archive.
  AuditArchiveBucketDB93AD31: { Type: 'AWS::S3::Bucket', retain: 'always', properties: { ObjectLockEnabled: true } },
  PartnersSecretsB7281E49: { Type: 'AWS::SecretsManager::Secret', retain: 'always', properties: { Name: 'tidewell-demo-partner-secrets' } },
  DataVaultE9375407: {
    Type: 'AWS::Backup::BackupVault',
    retain: 'always',
    properties: { BackupVaultName: 'TidewelldemodataDataVault57D4F102', EncryptionKeyArn: { 'Fn::GetAtt': ['DataKey5F086070', 'Arn'] } },
  },
};

/** Per type, the properties whose change replaces the resource, and what that costs. */
const REPLACING: Record<string, { properties: string[]; loss: string }> = {
  'AWS::DynamoDB::Table': {
    properties: ['TableName', 'KeySchema', 'AttributeDefinitions', 'GlobalSecondaryIndexes'],
    loss: 'a new, empty table (an index change rebuilds the index)',
  },
  'AWS::Cognito::UserPool': {
    properties: ['UserPoolName', 'UsernameAttributes', 'AliasAttributes', 'UsernameConfiguration', 'Schema'],
    loss: 'a new pool without a single user',
  },
  'AWS::Cognito::UserPoolGroup': { properties: ['UserPoolId', 'GroupName'], loss: 'a new, empty group: every member loses the role' },
  'AWS::Cognito::UserPoolClient': { properties: ['UserPoolId', 'GenerateSecret'], loss: 'a new client id: every signed-in session ends' },
  'AWS::S3::Bucket': { properties: ['BucketName'], loss: 'a new, empty bucket' },
  'AWS::KMS::Key': { properties: ['KeySpec', 'KeyUsage', 'MultiRegion'], loss: 'a new key; what the old one encrypted stays readable only while it is kept' },
  'AWS::SecretsManager::Secret': { properties: ['Name'], loss: 'a new secret without the partner values' },
  'AWS::Backup::BackupVault': { properties: ['BackupVaultName', 'EncryptionKeyArn'], loss: 'a new vault; the years of recovery points stay in the old one' },
};

/** Export names the app stack may import, pinned like the resources: CloudFormation refuses to drop one in use. */
const PINNED_EXPORTS = [
  'ExportsOutputFnGetAttAccessLogsBucketCD784A59Arn59C380A8',
  'ExportsOutputFnGetAttAccessLogsBucketCD784A59RegionalDomainName272CFFEF',
  'ExportsOutputFnGetAttAuditArchiveBucketDB93AD31Arn4CE0B981',
  'ExportsOutputFnGetAttAuditArchiveKey780AE008ArnD7A097CD',
  'ExportsOutputRefAuditArchiveBucketDB93AD31856013BB',
  'ExportsOutputFnGetAttAuthUserPool8115E87FArn0319CC0B',
  'ExportsOutputFnGetAttAuthUserPool8115E87FProviderName4223E46F',
  'ExportsOutputFnGetAttDataKey5F086070Arn0ECF9F84',
  'ExportsOutputFnGetAttDataTableFDBAD0F2Arn2713A995',
  'ExportsOutputFnGetAttDataTableFDBAD0F2StreamArnB1CFE66D',
  'ExportsOutputFnGetAttFilesBucket7C17EE2EArn267E46EA',
  'ExportsOutputFnGetAttFilesKeyF4491C5FArnD535F58C',
  'ExportsOutputFnGetAttLoggingKeyA95093ACArn251099DC',
  'ExportsOutputRefAccessLogsBucketCD784A594A287833',
  'ExportsOutputRefAuthUserPool8115E87F4F9C6D4C',
  'ExportsOutputRefAuthUserPoolWebClient147E4E38034FC02E',
  'ExportsOutputRefDataTableFDBAD0F2E871BBD6',
  'ExportsOutputRefFilesBucket7C17EE2EED6BB535',
  'ExportsOutputRefPartnersSecretsB7281E4958EFFEDB',
].map((name) => `Tidewell-demo-data:${name}`);

/** Whatever would make CloudFormation replace (or lose) a pinned resource, one line per resource and property. */
export function replacementsOf(resources: Record<string, Resource>, stackName: string): string[] {
  const problems: string[] = [];
  for (const [id, pin] of Object.entries(PINNED)) {
    const resource = resources[id];
    if (!resource) {
      problems.push(
        `${id} (${pin.Type}) is gone from ${stackName}: a renamed construct gives it a new logical id, and CloudFormation would create a new, empty one`,
      );
      continue;
    }
    if (resource.Type !== pin.Type) {
      problems.push(`${id} is now ${resource.Type}, was ${pin.Type}: CloudFormation would replace it`);
      continue;
    }
    const replacing = REPLACING[pin.Type]!;
    for (const property of replacing.properties) {
      const now = JSON.stringify(resource.Properties?.[property] === undefined ? undefined : pick(property, resource.Properties[property]));
      const pinned = JSON.stringify(pin.properties[property]);
      if (now !== pinned)
        problems.push(`${id} (${pin.Type}): ${property} changed from ${pinned ?? 'unset'} to ${now ?? 'unset'}; CloudFormation would make ${replacing.loss}`);
    }
  }
  const unpinned = Object.entries(resources).filter(([id, r]) => REPLACING[r.Type] && !PINNED[id]);
  for (const [id, r] of unpinned) problems.push(`${id} (${r.Type}) is stateful and not pinned: add it to PINNED in test/infra/practice-stacks.test.ts`);
  return problems;
}

/** Of a table's indexes, what the pin covers: name, keys, projection (throughput and warm settings may change). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function pick(property: string, value: any): unknown {
  if (property !== 'GlobalSecondaryIndexes') return value;
  return (value as { IndexName: string; KeySchema: unknown; Projection: unknown }[]).map(({ IndexName, KeySchema, Projection }) => ({
    IndexName,
    KeySchema,
    Projection,
  }));
}

const VERSION = '4f1c2d9@2026-12-02T03:00:00Z';
let practice: SynthesizedPractice;
let dataResources: Record<string, Resource>;
let appJson: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A throwaway practice (retainData false) on its own domain. */
let throwaway: SynthesizedPractice;

function assemblyOf(app: App) {
  return app.synth();
}

beforeAll(() => {
  practice = synthPracticeStack(undefined, {}, VERSION);
  dataResources = practice.dataTemplate.toJSON().Resources;
  appJson = practice.appTemplate.toJSON();
  throwaway = synthPracticeStack(undefined, { retainData: false, webDomain: 'app.harborfm.example' });
}, 240_000);

describe('two stacks per practice', () => {
  it('names them Tidewell-<slug>-data and Tidewell-<slug>-app, and the app depends on the data stack', () => {
    expect([practice.dataStack.stackName, practice.stack.stackName]).toEqual([dataStackName('demo'), appStackName('demo')]);
    expect([practice.dataStack.stackName, practice.stack.stackName]).toEqual(['Tidewell-demo-data', 'Tidewell-demo-app']);
    expect(practice.stack.dependencies.map((s) => s.stackName)).toEqual(['Tidewell-demo-data']);
    expect(practice.dataStack.dependencies).toEqual([]);
  });

  it('turns termination protection on for the data stack only, in the cloud assembly cdk deploy reads', () => {
    const assembly = assemblyOf(practice.app);
    expect(assembly.getStackByName('Tidewell-demo-data').terminationProtection).toBe(true);
    expect(assembly.getStackByName('Tidewell-demo-app').terminationProtection).toBeFalsy();
  });

  it('tags both stacks with the release they run (tidewell:version), the practice and the app', () => {
    const assembly = assemblyOf(practice.app);
    for (const name of ['Tidewell-demo-data', 'Tidewell-demo-app']) {
      expect(assembly.getStackByName(name).tags, name).toEqual({ app: 'tidewell', practice: 'demo', [VERSION_TAG]: VERSION });
    }
  });

  it('keeps the table, buckets, pool, keys, secrets and backups in the data stack, and nothing that runs code', () => {
    const types = (resources: Record<string, Resource>) => new Set(Object.values(resources).map((r) => r.Type));
    const data = types(dataResources);
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::Cognito::UserPool',
      'AWS::SecretsManager::Secret',
      'AWS::Backup::BackupVault',
      'AWS::Backup::BackupPlan',
    ]) {
      expect(data, type).toContain(type);
    }
    for (const type of [
      'AWS::Lambda::Function',
      'AWS::ApiGatewayV2::Api',
      'AWS::AppSync::GraphQLApi',
      'AWS::StepFunctions::StateMachine',
      'AWS::CloudFront::Distribution',
    ]) {
      expect(data, type).not.toContain(type);
    }
    const app = types(appJson.Resources);
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::Cognito::UserPool',
      'AWS::Cognito::UserPoolClient',
      'AWS::SecretsManager::Secret',
      'AWS::Backup::BackupVault',
    ]) {
      expect(app, type).not.toContain(type);
    }
    // The only bucket of the app stack holds the web build, which every deploy uploads again.
    expect(
      Object.entries(appJson.Resources as Record<string, Resource>)
        .filter(([, r]) => r.Type === 'AWS::S3::Bucket')
        .map(([id]) => id),
    ).toEqual([expect.stringMatching(/^WebBucket/)]);
  });

  it('has the data stack reference nothing of the app stack; the app imports what it uses from the data stack', () => {
    expect(JSON.stringify(practice.dataTemplate.toJSON())).not.toContain('Fn::ImportValue');
    const imports = new Set([...JSON.stringify(appJson).matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((m) => m[1]));
    expect(imports.size).toBeGreaterThan(0);
    const exported = exportsOf(practice.dataTemplate);
    for (const name of imports) expect(exported.has(name), name).toBe(true);
    // The group Lambdas reach the table, the pool and the files bucket through those imports.
    const practiceFn = Object.values(appJson.Resources as Record<string, Resource>).find(
      (r) => r.Properties.Description === 'Tidewell practice endpoints (demo)',
    )!;
    const env = practiceFn.Properties.Environment.Variables;
    expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputRefDataTableFDBAD0F2E871BBD6' });
    expect(env.USER_POOL_ID).toEqual({ 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputRefAuthUserPool8115E87F4F9C6D4C' });
    expect(env.FILES_BUCKET).toEqual({ 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputRefFilesBucket7C17EE2EED6BB535' });
    // The change stream feeds the app's publisher across the stacks.
    const mapping = Object.values(appJson.Resources as Record<string, Resource>).find((r) => r.Type === 'AWS::Lambda::EventSourceMapping')!;
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputFnGetAttDataTableFDBAD0F2StreamArnB1CFE66D' });
  });

  it('exports exactly the pinned values, whether or not the app uses each one today', () => {
    expect([...exportsOf(practice.dataTemplate).keys()].sort()).toEqual([...PINNED_EXPORTS].sort());
  });

  it('grants the app roles on their own side: no key policy of the data stack names an app role', () => {
    for (const [id, key] of Object.entries(dataResources).filter(([, r]) => r.Type === 'AWS::KMS::Key')) {
      const principals = JSON.stringify(key.Properties.KeyPolicy.Statement.map((s: { Principal: unknown }) => s.Principal));
      expect(principals, id).not.toMatch(/Role|ImportValue/);
    }
    // The partner secret's reader decrypts through Secrets Manager by its own role's policy.
    const target = Object.entries(appJson.Resources as Record<string, Resource>).find(
      ([, r]) => r.Properties.Description === 'Tidewell scheduled sends (demo)',
    )![1];
    const roleId = target.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(appJson.Resources as Record<string, Resource>)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual({
      Action: 'kms:Decrypt',
      Condition: { StringEquals: { 'kms:ViaService': 'secretsmanager.us-east-1.amazonaws.com' } },
      Effect: 'Allow',
      Resource: { 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputFnGetAttDataKey5F086070Arn0ECF9F84' },
    });
  });

  it("encrypts every app log group with the data stack's log key and logs the web bucket and distribution to its access-log bucket (the guard acknowledgements rest on this)", () => {
    const resources = Object.entries(appJson.Resources as Record<string, Resource>);
    const logGroups = resources.filter(([, r]) => r.Type === 'AWS::Logs::LogGroup');
    expect(logGroups.length).toBeGreaterThan(10);
    for (const [id, group] of logGroups) {
      expect(group.Properties.KmsKeyId, id).toEqual({ 'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputFnGetAttLoggingKeyA95093ACArn251099DC' });
    }
    const [, webBucket] = resources.find(([id, r]) => r.Type === 'AWS::S3::Bucket' && id.startsWith('WebBucket'))!;
    expect(webBucket.Properties.LoggingConfiguration.DestinationBucketName).toEqual({
      'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputRefAccessLogsBucketCD784A594A287833',
    });
    const [, distribution] = resources.find(([, r]) => r.Type === 'AWS::CloudFront::Distribution')!;
    expect(distribution.Properties.DistributionConfig.Logging.Bucket).toEqual({
      'Fn::ImportValue': 'Tidewell-demo-data:ExportsOutputFnGetAttAccessLogsBucketCD784A59RegionalDomainName272CFFEF',
    });
  });

  it('lets the browser use presigned URLs from the CloudFront app and the practice domain, without naming the app stack', () => {
    const files = dataResources.FilesBucket7C17EE2E!;
    expect(files.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual(['https://*.cloudfront.net']);
    const rules = throwaway.dataTemplate.toJSON().Resources.FilesBucket7C17EE2E.Properties.CorsConfiguration.CorsRules;
    expect(rules[0].AllowedOrigins).toEqual(['https://*.cloudfront.net', 'https://app.harborfm.example']);
  });

  it(`keeps each stack within the budget of ${BUDGETS.stackResources} CloudFormation resources`, () => {
    expect(Object.keys(dataResources).length).toBeLessThanOrEqual(BUDGETS.stackResources);
    expect(Object.keys(appJson.Resources).length).toBeLessThanOrEqual(BUDGETS.stackResources);
  });
});

describe('the stateful resources', () => {
  it('keep their logical ids and every property whose change would replace them', () => {
    expect(replacementsOf(dataResources, 'Tidewell-demo-data')).toEqual([]);
  });

  it('names the resource and what would be lost when a change would replace it', () => {
    const changed = structuredClone(dataResources);
    changed.DataTableFDBAD0F2!.Properties.KeySchema[1].AttributeName = 'sortKey';
    changed.AuthUserPool8115E87F!.Properties.UsernameConfiguration = { CaseSensitive: true };
    const renamed = changed.FilesBucket7C17EE2E!;
    delete changed.FilesBucket7C17EE2E;
    changed.FilesBucketC0FFEE00 = renamed;
    expect(replacementsOf(changed, 'Tidewell-demo-data')).toEqual([
      expect.stringMatching(/^DataTableFDBAD0F2 \(AWS::DynamoDB::Table\): KeySchema changed .* a new, empty table/),
      expect.stringMatching(/^AuthUserPool8115E87F \(AWS::Cognito::UserPool\): UsernameConfiguration changed .* a new pool without a single user/),
      expect.stringMatching(/^FilesBucket7C17EE2E \(AWS::S3::Bucket\) is gone from Tidewell-demo-data/),
      expect.stringMatching(/^FilesBucketC0FFEE00 \(AWS::S3::Bucket\) is stateful and not pinned/),
    ]);
  });

  it('are retained when the stack is deleted or a resource replaced; keys, secrets and backups always', () => {
    for (const [id, pin] of Object.entries(PINNED).filter(([, p]) => p.retain === 'always' || p.retain === 'retainData')) {
      expect([dataResources[id]!.DeletionPolicy, dataResources[id]!.UpdateReplacePolicy], id).toEqual(['Retain', 'Retain']);
      expect(pin.Type).toBe(dataResources[id]!.Type);
    }
    expect(dataResources.DataTableFDBAD0F2!.Properties.DeletionProtectionEnabled).toBe(true);
    expect(dataResources.AuthUserPool8115E87F!.Properties.DeletionProtection).toBe('ACTIVE');
  });

  it('are deleted with a throwaway practice (retainData false), except the keys, secrets and backups', () => {
    const resources = throwaway.dataTemplate.toJSON().Resources as Record<string, Resource>;
    for (const [id, pin] of Object.entries(PINNED).filter(([, p]) => p.retain === 'always' || p.retain === 'retainData')) {
      expect(resources[id]!.DeletionPolicy, id).toBe(pin.retain === 'always' ? 'Retain' : 'Delete');
    }
    // Termination protection stays on: deleting even a throwaway practice's data is a deliberate step.
    expect(throwaway.dataStack.terminationProtection).toBe(true);
  });
});

describe('the version tag', () => {
  it('is unversioned without -c version, and refuses a value CloudFormation would not take as a tag', () => {
    expect(versionFromContext(undefined)).toBe(UNVERSIONED);
    expect(versionFromContext('4f1c2d9@2026-12-02T03:00:00Z')).toBe('4f1c2d9@2026-12-02T03:00:00Z');
    expect(() => versionFromContext('4f1c2d9; rm -rf')).toThrow(/cannot be a stack tag/);
  });
});
