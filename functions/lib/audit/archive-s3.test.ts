import { PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { s3ArchiveStore } from './archive-s3.js';

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());

const refused = (status: number, name: string) => new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status } });

describe('archive store on S3', () => {
  it('creates a batch only if its key is free, with a checksum Object Lock accepts', async () => {
    s3.on(PutObjectCommand).resolves({});
    const store = s3ArchiveStore(new S3Client({ region: 'us-east-1' }), 'archive');
    expect(await store.putIfAbsent('audit/prc_x/000000000001.json', '{}')).toBe(true);
    expect(s3.commandCalls(PutObjectCommand)[0].args[0].input).toMatchObject({
      Bucket: 'archive',
      Key: 'audit/prc_x/000000000001.json',
      IfNoneMatch: '*',
      ChecksumAlgorithm: 'SHA256',
    });
  });

  it('answers false when the key is taken (412) or being written (409), and passes other failures on', async () => {
    const store = s3ArchiveStore(new S3Client({ region: 'us-east-1' }), 'archive');
    s3.on(PutObjectCommand)
      .rejectsOnce(refused(412, 'PreconditionFailed'))
      .rejectsOnce(refused(409, 'ConditionalRequestConflict'))
      .rejects(refused(403, 'AccessDenied'));
    expect(await store.putIfAbsent('k', '{}')).toBe(false);
    expect(await store.putIfAbsent('k', '{}')).toBe(false);
    await expect(store.putIfAbsent('k', '{}')).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});
