import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ARCHIVE_STREAM } from '../../functions/workers/audit-archive/subscription.js';
import { synthPracticeStack, templateLookups, type SynthesizedPractice, type StackResource } from './synth-practice-stack.js';

let practice: SynthesizedPractice;
let lookups: ReturnType<typeof templateLookups>;
let data: Record<string, StackResource & { DeletionPolicy?: string }>;
const SIX_YEARS_DAYS = 6 * 365;

beforeAll(() => {
  practice = synthPracticeStack();
  lookups = templateLookups(practice);
  data = practice.dataTemplate.toJSON().Resources;
}, 240_000);

const archiveBucket = () => Object.entries(data).find(([id, r]) => r.Type === 'AWS::S3::Bucket' && id.startsWith('AuditArchiveBucket'))!;

/** Every IAM statement of the app stack's roles, with the role it belongs to. */
function roleStatements() {
  return lookups.ofType('AWS::IAM::Policy').flatMap(([, p]) =>
    (p.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[]).map((s) => ({
      roles: lookups.refs(p.Properties.Roles),
      ...s,
    })),
  );
}

describe('audit archive', () => {
  it('keeps the archive in the data stack: Object Lock in compliance mode for six years, versioned, under its own retained KMS key', () => {
    const [bucketId, bucket] = archiveBucket();
    expect(bucket.Properties.ObjectLockEnabled).toBe(true);
    expect(bucket.Properties.ObjectLockConfiguration).toEqual({
      ObjectLockEnabled: 'Enabled',
      Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: SIX_YEARS_DAYS } },
    });
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.DeletionPolicy).toBe('Retain');
    const sse = bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0];
    expect(sse.ServerSideEncryptionByDefault.SSEAlgorithm).toBe('aws:kms');
    const keyId = sse.ServerSideEncryptionByDefault.KMSMasterKeyID['Fn::GetAtt'][0] as string;
    expect(keyId).toMatch(/^AuditArchiveKey/);
    expect(data[keyId].DeletionPolicy).toBe('Retain');
    expect(data[keyId].Properties.EnableKeyRotation).toBe(true);
    // Its own key: no other bucket or table is encrypted with it.
    const users = Object.entries(data).filter(
      ([id, r]) => id !== bucketId && JSON.stringify(r.Properties ?? {}).includes(`"${keyId}"`) && r.Type !== 'AWS::S3::BucketPolicy',
    );
    expect(users.map(([id]) => id)).toEqual([]);
    expect(data[keyId].Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({ Sid: 'DenyKeyDestruction', Effect: 'Deny', Action: ['kms:ScheduleKeyDeletion', 'kms:DisableKey'] }),
    );
    expect(practice.dataTemplate.toJSON().Outputs.auditArchiveBucket.Value).toEqual({ Ref: bucketId });
  });

  it('gives no Lambda role any delete (or retention, or lock-bypass) right on the archive, and the archiver only put and get under audit/', () => {
    const [bucketId] = archiveBucket();
    const onArchive = roleStatements().filter((s) => JSON.stringify(s.Resource).includes(bucketId));
    expect(onArchive.length).toBeGreaterThan(0);
    for (const s of onArchive) {
      const actions = [s.Action].flat();
      expect(
        actions.filter((a) => /Delete|\*|Retention|LegalHold|Bypass|PutLifecycle|PutBucket/.test(a)),
        JSON.stringify(s),
      ).toEqual([]);
    }
    const [, archiver] = lookups.fnByDescription('Tidewell audit archiver (demo)');
    const archiverRole = lookups.refs(archiver.Properties.Role)[0];
    expect(onArchive.every((s) => s.roles.includes(archiverRole))).toBe(true);
    expect(onArchive.flatMap((s) => [s.Action].flat()).sort()).toEqual(['s3:GetObject', 's3:PutObject']);
    expect(JSON.stringify(onArchive.map((s) => s.Resource))).toContain('/audit/*');
    // And no role anywhere in the app holds a wildcard S3 delete that could reach it.
    for (const s of roleStatements())
      expect(
        [s.Action].flat().filter((a) => a === 's3:*' || a === '*'),
        JSON.stringify(s),
      ).toEqual([]);
  });

  it("feeds the archiver from the table's stream: new audit entries and changes or removals at audit keys only, in order, retried for the stream's 24 hours, then a dead-letter queue with an alarm", () => {
    const [archiverId] = lookups.fnByDescription('Tidewell audit archiver (demo)');
    const [, mapping] = lookups.ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => lookups.refs(m.Properties.FunctionName).includes(archiverId))!;
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: AUDIT_ARCHIVE_STREAM.batchSize,
      BisectBatchOnFunctionError: false,
      ParallelizationFactor: 1,
      MaximumBatchingWindowInSeconds: 60,
      MaximumRetryAttempts: AUDIT_ARCHIVE_STREAM.retryAttempts,
      MaximumRecordAgeInSeconds: 86_400,
    });
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
    expect(patterns).toEqual(AUDIT_ARCHIVE_STREAM.filters);
    expect(patterns).toContainEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entityType: { S: ['AUDIT'] } } } });
    expect(patterns).toContainEqual({ eventName: ['MODIFY', 'REMOVE'], dynamodb: { Keys: { sk: { S: [{ prefix: 'AUDIT#' }] } } } });
    const [queueId] = lookups.refs(mapping.Properties.DestinationConfig.OnFailure.Destination);
    const alarms = lookups
      .ofType('AWS::CloudWatch::Alarm')
      .filter(([, a]) => JSON.stringify(a.Properties).includes(queueId) || JSON.stringify(a.Properties).includes('audit-archive'));
    expect(alarms.length).toBeGreaterThanOrEqual(2);
  });
});
