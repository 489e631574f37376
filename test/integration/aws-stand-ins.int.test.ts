/**
 * The local stand-ins answer in AWS's wire format: each is driven here by the official SDK v3
 * client of the service it stands in for, so AWS's own deserializers read its answers (and its
 * errors), and each answer gives the fields the hand-written adapters read.
 */
import { randomUUID } from 'node:crypto';
import {
  ConflictException as SmsConflict,
  PinpointSMSVoiceV2Client,
  ResourceNotFoundException as SmsNotFound,
  SendMediaMessageCommand,
  SendTextMessageCommand,
  ValidationException,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { describe, expect, it } from 'vitest';
import { scheduleAdapterFromEnv } from '../../functions/lib/adapters/scheduler.js';
import { S3Objects } from '../../functions/lib/adapters/s3-objects.js';
import { SmsVoiceV2Carrier } from '../../functions/lib/adapters/sms-carrier.js';
import { stackEndpoints, stackOutputs } from '../support/local-stack.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const PRACTICE_PHONE = '+15415550100';
const run = randomUUID().slice(0, 8);
/** A phone no other test uses: the carrier's opt-out list outlives a test. */
const newPhone = () => `+1972${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

describe('the local scheduler, driven by @aws-sdk/client-scheduler', () => {
  const group = 'tidewell-contract';
  const client = () => new SchedulerClient({ endpoint: stackEndpoints().scheduler, region: stackOutputs().region, credentials, maxAttempts: 1 });
  const target = {
    Arn: `arn:aws:lambda:us-east-1:000000000000:function:contract-${run}`,
    RoleArn: 'arn:aws:iam::000000000000:role/scheduler-invoke',
    Input: '{"kind":"never"}',
  };

  it('creates (with the idempotency token the SDK fills), reads back what the adapter reads, refuses a duplicate, deletes, and names a missing schedule', async () => {
    const name = `contract.${run}`;
    const created = await client().send(
      new CreateScheduleCommand({
        Name: name,
        GroupName: group,
        ScheduleExpression: 'at(2099-01-01T00:00:00)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: target,
      }),
    );
    expect(created.ScheduleArn).toBe(`arn:aws:scheduler:${stackOutputs().region}:000000000000:schedule/${group}/${name}`);

    const got = await client().send(new GetScheduleCommand({ Name: name, GroupName: group }));
    expect(got).toMatchObject({
      Name: name,
      GroupName: group,
      ScheduleExpression: 'at(2099-01-01T00:00:00)',
      State: 'ENABLED',
      ActionAfterCompletion: 'DELETE',
      Target: target,
    });
    expect(got.CreationDate).toBeInstanceOf(Date);
    expect(Math.abs(got.CreationDate!.getTime() - Date.now())).toBeLessThan(60_000);

    // The hand-written adapter reads the same answer.
    const adapter = scheduleAdapterFromEnv({
      SCHEDULER_ENDPOINT: stackEndpoints().scheduler,
      AWS_REGION: stackOutputs().region,
      SCHEDULER_GROUP: group,
      SCHEDULER_TARGET_ARN: target.Arn,
      SCHEDULER_ROLE_ARN: target.RoleArn,
    });
    expect(await adapter.get(name)).toEqual({ name, at: new Date('2099-01-01T00:00:00Z'), state: 'ENABLED' });

    await expect(
      client().send(
        new CreateScheduleCommand({
          Name: name,
          GroupName: group,
          ScheduleExpression: 'at(2099-01-01T00:00:00)',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: target,
        }),
      ),
    ).rejects.toBeInstanceOf(ConflictException);
    await client().send(new DeleteScheduleCommand({ Name: name, GroupName: group }));
    await expect(client().send(new GetScheduleCommand({ Name: name, GroupName: group }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(client().send(new DeleteScheduleCommand({ Name: name, GroupName: group }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(await adapter.get(name)).toBeNull();
  });
});

describe('the sandbox carrier, driven by @aws-sdk/client-pinpoint-sms-voice-v2', () => {
  const client = () => new PinpointSMSVoiceV2Client({ endpoint: stackEndpoints().smsVoice, region: stackOutputs().region, credentials, maxAttempts: 1 });

  it('answers SendTextMessage and SendMediaMessage with the MessageId the adapter reads', async () => {
    const to = newPhone();
    const text = await client().send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: to,
        OriginationIdentity: PRACTICE_PHONE,
        MessageBody: `Contract ${run}`,
        MessageType: 'TRANSACTIONAL',
      }),
    );
    expect(text.MessageId).toMatch(/^[0-9a-f-]{36}$/);

    const { filesBucket, region } = stackOutputs();
    const key = `protected/sms/contract-${run}.png`;
    await new S3Client({ endpoint: stackEndpoints().s3, forcePathStyle: true, region, credentials }).send(
      new PutObjectCommand({ Bucket: filesBucket, Key: key, Body: Buffer.from('89504e470d0a1a0a', 'hex'), ContentType: 'image/png' }),
    );
    const media = await client().send(
      new SendMediaMessageCommand({
        DestinationPhoneNumber: to,
        OriginationIdentity: PRACTICE_PHONE,
        MessageBody: 'A photo',
        MediaUrls: [`s3://${filesBucket}/${key}`],
      }),
    );
    expect(media.MessageId).toMatch(/^[0-9a-f-]{36}$/);

    const carrier = new SmsVoiceV2Carrier({ region, endpoint: stackEndpoints().smsVoice, credentials });
    expect((await carrier.send({ from: PRACTICE_PHONE, to, text: `Adapter ${run}` })).messageIds[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers its refusals as the SDK errors they are: a bad number, a number the account does not hold, an opted-out phone', async () => {
    const bad = await client()
      .send(new SendTextMessageCommand({ DestinationPhoneNumber: '5415550199', OriginationIdentity: PRACTICE_PHONE, MessageBody: 'x' }))
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationException);
    expect(bad).toMatchObject({ Reason: 'INVALID_PARAMETER' });

    const notHeld = await client()
      .send(new SendTextMessageCommand({ DestinationPhoneNumber: newPhone(), OriginationIdentity: '+15415550999', MessageBody: 'x' }))
      .catch((e: unknown) => e);
    expect(notHeld).toBeInstanceOf(SmsNotFound);
    expect(notHeld).toMatchObject({ ResourceType: 'phone-number', ResourceId: '+15415550999' });

    const phone = newPhone();
    const stop = await fetch(`${stackOutputs().webUrl}/local/carrier/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: phone, to: PRACTICE_PHONE, text: 'STOP' }),
    });
    expect(stop.status).toBe(202);
    const optedOut = await client()
      .send(new SendTextMessageCommand({ DestinationPhoneNumber: phone, OriginationIdentity: PRACTICE_PHONE, MessageBody: 'x' }))
      .catch((e: unknown) => e);
    expect(optedOut).toBeInstanceOf(SmsConflict);
    expect(optedOut).toMatchObject({ Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT' });
  });
});

describe('the local file store, driven by @aws-sdk/client-s3', () => {
  it('keeps what the SDK puts and answers Get, Head, ListObjectsV2 and Delete as the SDK and the adapter read them', async () => {
    const { filesBucket, region } = stackOutputs();
    const client = new S3Client({ endpoint: stackEndpoints().s3, forcePathStyle: true, region, credentials });
    const objects = new S3Objects({ region, endpoint: stackEndpoints().s3, credentials });
    const prefix = `protected/contract-${run}/`;
    const key = `${prefix}Lab result (final) #2.pdf`;
    await client.send(new PutObjectCommand({ Bucket: filesBucket, Key: key, Body: '%PDF-1.7 contract', ContentType: 'application/pdf' }));
    await objects.putObject({ bucket: filesBucket, key: `${prefix}b.txt` }, new Uint8Array(Buffer.from('from the adapter')), { contentType: 'text/plain' });

    const got = await client.send(new GetObjectCommand({ Bucket: filesBucket, Key: `${prefix}b.txt` }));
    expect(await got.Body!.transformToString()).toBe('from the adapter');
    expect(Buffer.from(await objects.getObject({ bucket: filesBucket, key })).toString()).toBe('%PDF-1.7 contract');
    const head = await client.send(new HeadObjectCommand({ Bucket: filesBucket, Key: key }));
    expect(await objects.headObject({ bucket: filesBucket, key })).toEqual({ size: head.ContentLength, contentType: head.ContentType });

    const listed = await client.send(new ListObjectsV2Command({ Bucket: filesBucket, Prefix: prefix }));
    expect(await objects.listObjects(filesBucket, prefix)).toEqual(
      listed.Contents!.map((o) => ({ key: o.Key, size: o.Size, lastModified: o.LastModified!.toISOString() })),
    );

    await objects.deleteObject({ bucket: filesBucket, key });
    await client.send(new DeleteObjectCommand({ Bucket: filesBucket, Key: `${prefix}b.txt` }));
    await expect(client.send(new GetObjectCommand({ Bucket: filesBucket, Key: key }))).rejects.toBeInstanceOf(NoSuchKey);
    await expect(objects.getObject({ bucket: filesBucket, key })).rejects.toMatchObject({ name: 'NoSuchKey', status: 404 });
    expect(await objects.listKeys(filesBucket, prefix)).toEqual([]);
  });
});
