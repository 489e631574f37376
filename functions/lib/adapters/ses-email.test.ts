import {
  AccountSuspendedException,
  InternalServiceErrorException,
  MailFromDomainNotVerifiedException,
  MessageRejected,
  SendEmailCommand,
  SendingPausedException,
  SESv2Client,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { NOTE_MESSAGES } from '../../../shared/notes/note-constants.js';
import { DisabledEmailSender, emailSenderFromEnv, LocalOutboxEmailSender } from './email.js';
import { EmailSendFailure } from './email-sender.js';
import { coveredByIdentity } from './email-identity.js';
import { SesEmailSender } from './ses-email.js';

const sesMock = mockClient(SESv2Client);

const EMAIL = {
  to: 'nora.patient@example.com',
  from: 'daniel.okafor@harborfm.example',
  subject: 'Your lab results',
  text: 'Your results are normal.',
  html: '<p>Your results are <strong>normal</strong>.</p>',
};

function sender(identity = 'harborfm.example', configurationSetName?: string) {
  return new SesEmailSender({
    client: new SESv2Client({ region: 'us-east-1' }),
    identity,
    fromAddress: identity.includes('@') ? identity : `notes@${identity}`,
    ...(configurationSetName ? { configurationSetName } : {}),
  });
}

const meta = { $metadata: {} };

describe('SesEmailSender', () => {
  beforeEach(() => sesMock.reset());

  it('sends From the author when the domain identity covers the address, with subject, text and HTML bodies in UTF-8', async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: '0100018f-ses-message' });

    const sent = await sender('harborfm.example', 'tidewell-harbor').send('prc_harbor', EMAIL);

    expect(sent).toEqual({ messageId: '0100018f-ses-message', transport: 'ses' });
    const calls = sesMock.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      FromEmailAddress: 'daniel.okafor@harborfm.example',
      Destination: { ToAddresses: ['nora.patient@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Your lab results', Charset: 'UTF-8' },
          Body: {
            Text: { Data: 'Your results are normal.', Charset: 'UTF-8' },
            Html: { Data: '<p>Your results are <strong>normal</strong>.</p>', Charset: 'UTF-8' },
          },
        },
      },
      ConfigurationSetName: 'tidewell-harbor',
    });
  });

  it("sends from the practice address with the author as Reply-To when the identity does not cover the author's address", async () => {
    sesMock.on(SendEmailCommand).resolves({ MessageId: 'm-2' });

    await sender('notes@harborfm.example').send('prc_harbor', { ...EMAIL, from: 'dr.okafor@gmail.example', html: undefined });

    const input = sesMock.commandCalls(SendEmailCommand)[0].args[0].input;
    expect(input.FromEmailAddress).toBe('notes@harborfm.example');
    expect(input.ReplyToAddresses).toEqual(['dr.okafor@gmail.example']);
    expect(input.Content?.Simple?.Body).toEqual({ Text: { Data: 'Your results are normal.', Charset: 'UTF-8' } });
    expect(input).not.toHaveProperty('ConfigurationSetName');
  });

  it.each([
    ['MessageRejected', new MessageRejected({ message: 'Email address is not verified.', ...meta }), 'rejected'],
    ['MailFromDomainNotVerifiedException', new MailFromDomainNotVerifiedException({ message: 'not verified', ...meta }), 'rejected'],
    ['TooManyRequestsException', new TooManyRequestsException({ message: 'slow down', ...meta }), 'throttled'],
    ['SendingPausedException', new SendingPausedException({ message: 'paused', ...meta }), 'paused'],
    ['AccountSuspendedException', new AccountSuspendedException({ message: 'suspended', ...meta }), 'paused'],
    ['InternalServiceErrorException', new InternalServiceErrorException({ message: 'oops', ...meta }), 'unavailable'],
  ] as const)('maps %s to a %s failure that names the SES error, not the addresses', async (code, error, kind) => {
    sesMock.on(SendEmailCommand).rejects(error);
    const failure = await sender()
      .send('prc_harbor', EMAIL)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EmailSendFailure);
    expect(failure).toMatchObject({ kind, code });
    expect(String((failure as Error).message)).not.toContain('example');
  });

  it('treats a network failure as the service being unavailable', async () => {
    sesMock.on(SendEmailCommand).rejects(Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }));
    await expect(sender().send('prc_harbor', EMAIL)).rejects.toMatchObject({ kind: 'unavailable', code: 'TimeoutError' });
  });

  it('the user-facing message for each failure keeps the note and says what to do', () => {
    expect(NOTE_MESSAGES.emailSendFailed('rejected')).toBe(
      'There was an error sending the email. The mail service refused the message; check the To and From addresses. The note is kept and was not sent.',
    );
    expect(NOTE_MESSAGES.emailSendFailed('throttled')).toContain('try again in a minute');
  });
});

describe('coveredByIdentity', () => {
  it('accepts any address of a domain identity and only the exact address of an address identity', () => {
    expect(coveredByIdentity('A.Person@HarborFM.example', 'harborfm.example')).toBe(true);
    expect(coveredByIdentity('a@mail.harborfm.example', 'harborfm.example')).toBe(false);
    expect(coveredByIdentity('notes@harborfm.example', 'notes@harborfm.example')).toBe(true);
    expect(coveredByIdentity('other@harborfm.example', 'notes@harborfm.example')).toBe(false);
    expect(coveredByIdentity('not-an-address', 'harborfm.example')).toBe(false);
  });
});

describe('emailSenderFromEnv', () => {
  it('uses the local outbox when nothing is configured (npm start), SES when the stack says so, and refuses when disabled', async () => {
    expect(await emailSenderFromEnv({})).toBeInstanceOf(LocalOutboxEmailSender);
    expect(
      await emailSenderFromEnv({ EMAIL_TRANSPORT: 'ses', EMAIL_IDENTITY: 'harborfm.example', EMAIL_FROM_ADDRESS: 'notes@harborfm.example' }),
    ).toBeInstanceOf(SesEmailSender);
    const disabled = await emailSenderFromEnv({ EMAIL_TRANSPORT: 'none' });
    expect(disabled).toBeInstanceOf(DisabledEmailSender);
    await expect(disabled.send('prc', EMAIL)).rejects.toMatchObject({ kind: 'not-configured' });
    await expect(emailSenderFromEnv({ EMAIL_TRANSPORT: 'ses', EMAIL_IDENTITY: 'harborfm.example' })).rejects.toThrow('EMAIL_FROM_ADDRESS is not set');
    await expect(emailSenderFromEnv({ EMAIL_TRANSPORT: 'smtp' })).rejects.toThrow('EMAIL_TRANSPORT smtp');
  });
});
