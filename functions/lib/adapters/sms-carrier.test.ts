import { PinpointSMSVoiceV2Client, SendMediaMessageCommand, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectSameOperation, recordingExchange, recordingHandler, SIGNING_TIME, TEST_CREDENTIALS, type CannedAnswer } from '../../../test/support/aws-wire.js';
import { parseCarrierMessage, receiptOutcome, SmsSendFailure, SmsVoiceV2Carrier, type HttpExchange } from './sms-carrier.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

function recorder(answer: { status: number; body: string }) {
  const calls: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
  const exchange: HttpExchange = async (url, init) => {
    calls.push({ url, headers: init.headers, body: JSON.parse(init.body) as Record<string, unknown> });
    return answer;
  };
  return { calls, exchange };
}

describe('SmsVoiceV2Carrier', () => {
  it('sends SendTextMessage as a signed awsJson1_0 call with the documented fields', async () => {
    const { calls, exchange } = recorder({ status: 200, body: JSON.stringify({ MessageId: 'b6f2c0a1-0000-4000-8000-000000000001' }) });
    const carrier = new SmsVoiceV2Carrier({ region: 'us-east-1', credentials, configurationSet: 'tidewell-demo-sms', exchange });
    const sent = await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'Your results are in', context: { noteId: 'n1' } });
    expect(sent.messageIds).toEqual(['b6f2c0a1-0000-4000-8000-000000000001']);
    const [call] = calls;
    expect(call!.url).toBe('https://sms-voice.us-east-1.amazonaws.com/');
    expect(call!.headers['x-amz-target']).toBe('PinpointSMSVoiceV2.SendTextMessage');
    expect(call!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(call!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/sms-voice\/aws4_request, SignedHeaders=.*x-amz-target.*, Signature=[0-9a-f]{64}$/,
    );
    expect(call!.body).toEqual({
      DestinationPhoneNumber: '+15415550199',
      OriginationIdentity: '+15415550100',
      MessageBody: 'Your results are in',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'tidewell-demo-sms',
      Context: { noteId: 'n1' },
    });
  });

  it('sends each attachment with SendMediaMessage by its s3:// URL, the text with the first', async () => {
    const { calls, exchange } = recorder({ status: 200, body: JSON.stringify({ MessageId: 'm' }) });
    const carrier = new SmsVoiceV2Carrier({ region: 'us-west-2', credentials, exchange });
    const sent = await carrier.send({
      from: '+15415550100',
      to: '+15415550199',
      text: 'Photos',
      media: [
        { bucket: 'b', key: 'sms/a.jpg' },
        { bucket: 'b', key: 'sms/b.png' },
      ],
    });
    expect(sent.messageIds).toHaveLength(2);
    expect(calls.map((c) => c.headers['x-amz-target'])).toEqual(['PinpointSMSVoiceV2.SendMediaMessage', 'PinpointSMSVoiceV2.SendMediaMessage']);
    expect(calls[0]!.body).toEqual({
      DestinationPhoneNumber: '+15415550199',
      OriginationIdentity: '+15415550100',
      MessageBody: 'Photos',
      MediaUrls: ['s3://b/sms/a.jpg'],
    });
    expect(calls[1]!.body).toEqual({ DestinationPhoneNumber: '+15415550199', OriginationIdentity: '+15415550100', MediaUrls: ['s3://b/sms/b.png'] });
  });

  it('maps the documented errors: an opted-out destination, a throttle, a validation refusal, an outage', async () => {
    const cases: [number, object, string][] = [
      [
        400,
        { __type: 'ConflictException', Message: 'Conflict', Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT', ResourceType: 'opt-out-list', ResourceId: 'Default' },
        'opted-out',
      ],
      [400, { __type: 'ThrottlingException', Message: 'Rate exceeded' }, 'throttled'],
      [400, { __type: 'com.amazonaws.pinpointsmsvoicev2#ValidationException', Message: 'bad', Reason: 'INVALID_IDENTITY_FOR_DESTINATION_COUNTRY' }, 'rejected'],
      [500, { __type: 'InternalServerException', Message: 'oops' }, 'unavailable'],
    ];
    for (const [status, body, kind] of cases) {
      const carrier = new SmsVoiceV2Carrier({ region: 'us-east-1', credentials, exchange: recorder({ status, body: JSON.stringify(body) }).exchange });
      const error = await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SmsSendFailure);
      expect((error as SmsSendFailure).kind).toBe(kind);
    }
  });
});

describe('inbound topic messages', () => {
  it('reads a two-way inbound text as the service publishes it', () => {
    const m = parseCarrierMessage(
      JSON.stringify({
        originationNumber: '+14255550182',
        destinationNumber: '+12125550101',
        messageKeyword: 'JOIN',
        messageBody: 'EXAMPLE',
        inboundMessageId: 'cae173d2-66b9-564c-8309-21f858e9fb84',
        previousPublishedMessageId: 'wJ0GdFEXAMPLE',
      }),
    );
    expect(m).toEqual({
      kind: 'inbound',
      originationNumber: '+14255550182',
      destinationNumber: '+12125550101',
      messageBody: 'EXAMPLE',
      inboundMessageId: 'cae173d2-66b9-564c-8309-21f858e9fb84',
      messageKeyword: 'JOIN',
      previousPublishedMessageId: 'wJ0GdFEXAMPLE',
    });
  });

  it('reads a configuration-set event and its outcome', () => {
    const r = parseCarrierMessage(
      JSON.stringify({
        eventType: 'TEXT_SUCCESSFUL',
        eventVersion: '1.0',
        eventTimestamp: 1686975103470,
        isFinal: true,
        originationPhoneNumber: '+12065550152',
        destinationPhoneNumber: '+14255550156',
        messageId: '862a8790-60c0-4430-9b2b-658bdexample',
        messageStatus: 'SUCCESSFUL',
        messageStatusDescription: 'Message has been accepted by phone carrier',
        context: { noteId: 'n1' },
      }),
    );
    expect(r).toMatchObject({ kind: 'receipt', messageId: '862a8790-60c0-4430-9b2b-658bdexample', context: { noteId: 'n1' } });
    expect(receiptOutcome(r as never)).toBe('DELIVERED');
    expect(receiptOutcome({ kind: 'receipt', eventType: 'TEXT_BLOCKED', messageId: 'x', messageStatus: 'BLOCKED' })).toBe('FAILED');
    expect(receiptOutcome({ kind: 'receipt', eventType: 'TEXT_PENDING', messageId: 'x', messageStatus: 'PENDING' })).toBeNull();
    expect(parseCarrierMessage('not json')).toBeNull();
  });
});

describe('SMS calls, as @aws-sdk/client-pinpoint-sms-voice-v2 sends them', () => {
  const HEADERS = ['content-type', 'x-amz-target', 'host'];
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: SIGNING_TIME }));
  afterEach(() => vi.useRealTimers());

  function pair(canned: CannedAnswer, endpoint?: string) {
    const lite = recordingExchange(canned);
    const sdk = recordingHandler(canned);
    return {
      lite,
      sdk,
      carrier: new SmsVoiceV2Carrier({
        region: 'us-east-1',
        credentials: TEST_CREDENTIALS,
        configurationSet: 'tidewell-demo-sms',
        exchange: lite.exchange,
        ...(endpoint ? { endpoint } : {}),
      }),
      client: new PinpointSMSVoiceV2Client({
        region: 'us-east-1',
        credentials: TEST_CREDENTIALS,
        requestHandler: sdk.requestHandler,
        maxAttempts: 1,
        ...(endpoint ? { endpoint } : {}),
      }),
    };
  }
  const ok = { status: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{"MessageId":"b6f2c0a1-0000-4000-8000-000000000001"}' };

  it('SendTextMessage and SendMediaMessage: the same request to AWS, and the MessageId read back as the SDK reads it', async () => {
    const { lite, sdk, carrier, client } = pair(ok);
    const sent = await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'Your results are in', context: { noteId: 'n1' } });
    const out = await client.send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: '+15415550199',
        OriginationIdentity: '+15415550100',
        MessageBody: 'Your results are in',
        MessageType: 'TRANSACTIONAL',
        ConfigurationSetName: 'tidewell-demo-sms',
        Context: { noteId: 'n1' },
      }),
    );
    expectSameOperation(lite.requests[0]!, sdk.requests[0]!, { headers: HEADERS, service: 'sms-voice', json: true });
    expect(sent.messageIds).toEqual([out.MessageId]);

    await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'Photos', media: [{ bucket: 'tidewell-demo-files', key: 'protected/sms/a b.jpg' }] });
    await client.send(
      new SendMediaMessageCommand({
        DestinationPhoneNumber: '+15415550199',
        OriginationIdentity: '+15415550100',
        MessageBody: 'Photos',
        MediaUrls: ['s3://tidewell-demo-files/protected/sms/a b.jpg'],
        ConfigurationSetName: 'tidewell-demo-sms',
      }),
    );
    expectSameOperation(lite.requests[1]!, sdk.requests[1]!, { headers: HEADERS, service: 'sms-voice', json: true });
  });

  it('the same request to the sandbox carrier of npm start', async () => {
    const { lite, sdk, carrier, client } = pair(ok, 'http://127.0.0.1:4600/local/sms-voice');
    await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'Hello' });
    await client.send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: '+15415550199',
        OriginationIdentity: '+15415550100',
        MessageBody: 'Hello',
        MessageType: 'TRANSACTIONAL',
        ConfigurationSetName: 'tidewell-demo-sms',
      }),
    );
    expectSameOperation(lite.requests[0]!, sdk.requests[0]!, { headers: HEADERS, service: 'sms-voice', json: true });
  });

  it('names an error as the SDK does, from the X-Amzn-ErrorType header or the body', async () => {
    const cases: [CannedAnswer, string, string][] = [
      [
        {
          status: 400,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: JSON.stringify({ __type: 'ConflictException', Message: 'Conflict', Reason: 'DESTINATION_PHONE_NUMBER_OPTED_OUT' }),
        },
        'ConflictException',
        'opted-out',
      ],
      [
        {
          status: 400,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.coral.availability/',
          },
          body: '{"Message":"Rate exceeded"}',
        },
        'ThrottlingException',
        'throttled',
      ],
      [
        {
          status: 400,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'ServiceQuotaExceededException' },
          body: '{"Message":"Quota","Reason":"MONTHLY_SPEND_LIMIT_REACHED_FOR_TEXT"}',
        },
        'ServiceQuotaExceededException',
        'throttled',
      ],
      [
        {
          status: 400,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: JSON.stringify({ __type: 'com.amazonaws.pinpointsmsvoicev2#ValidationException', Message: 'bad', Reason: 'INVALID_PARAMETER' }),
        },
        'ValidationException',
        'rejected',
      ],
    ];
    for (const [canned, sdkName, kind] of cases) {
      const { carrier, client } = pair(canned);
      const sdkError = await client
        .send(new SendTextMessageCommand({ DestinationPhoneNumber: '+15415550199', OriginationIdentity: '+15415550100', MessageBody: 'x' }))
        .catch((e: Error) => e);
      const error = await carrier.send({ from: '+15415550100', to: '+15415550199', text: 'x' }).catch((e: unknown) => e);
      expect((sdkError as Error).name).toBe(sdkName);
      expect((error as SmsSendFailure).code.split(':')[0]).toBe(sdkName);
      expect((error as SmsSendFailure).kind).toBe(kind);
    }
  });
});
