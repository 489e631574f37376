import { describe, expect, it } from 'vitest';
import { IntakeQClient, IntakeQError, isSubmitted, parseIntakeQConfig, toSubmission, type IntakeQIntake } from './intakeq.js';
import type { HttpExchange } from './sms-carrier.js';

/** Records each request and answers with IntakeQ's documented shapes. */
function recorder(answers: { status: number; body: string }[]) {
  const calls: { url: string; init: Parameters<HttpExchange>[1] }[] = [];
  const exchange: HttpExchange = async (url, init) => {
    calls.push({ url, init });
    return answers.shift() ?? { status: 500, body: '' };
  };
  return { calls, exchange };
}

const config = { apiKey: 'key-123', baseUrl: 'https://intakeq.com/api/v1' };

const INTAKE: IntakeQIntake = {
  Id: '0a1b2c3d-0000-4000-8000-000000000001',
  ClientName: 'Ina Take',
  ClientEmail: 'ina@example.com',
  ClientId: 42,
  Status: 'Completed',
  DateCreated: 1764111600000,
  DateSubmitted: 1764115200000,
  QuestionnaireName: 'New Patient Intake',
  QuestionnaireId: '5f1a2b3c',
  ExternalClientId: 'p-1',
  Questions: [
    { Id: 'allergies', Text: 'Allergies', Answer: 'Penicillin', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
    { Id: 'office', Text: 'Reviewed by', Answer: 'Dr. A', QuestionType: 'OpenQuestion', OfficeUse: true },
    { Id: 'tobacco', Text: 'Tobacco?', Answer: null, QuestionType: 'MultipleChoice' },
  ],
};

describe('IntakeQ adapter', () => {
  it('reads the settings from the partner secret, refusing one without an API key or a long enough webhook token', () => {
    expect(parseIntakeQConfig(JSON.stringify({ apiKey: 'k', webhookToken: 't'.repeat(16) }))).toEqual({
      apiKey: 'k',
      webhookToken: 't'.repeat(16),
      baseUrl: 'https://intakeq.com/api/v1',
      appUrl: 'https://intakeq.com',
    });
    expect(parseIntakeQConfig(JSON.stringify({ apiKey: 'k', webhookToken: 'short' }))).toBeNull();
    expect(parseIntakeQConfig(JSON.stringify({ webhookToken: 't'.repeat(16) }))).toBeNull();
    expect(parseIntakeQConfig('not json')).toBeNull();
    expect(parseIntakeQConfig(null)).toBeNull();
  });

  it('lists questionnaires with the X-Auth-Key header, archived ones left out', async () => {
    const { calls, exchange } = recorder([
      {
        status: 200,
        body: JSON.stringify([
          { Id: 'a', Name: 'Intake', Archived: false, Anonymous: false },
          { Id: 'b', Name: 'Old', Archived: true, Anonymous: false },
        ]),
      },
    ]);
    expect(await new IntakeQClient(config, exchange).questionnaires()).toEqual([{ Id: 'a', Name: 'Intake', Archived: false, Anonymous: false }]);
    expect(calls[0].url).toBe('https://intakeq.com/api/v1/questionnaires');
    expect(calls[0].init.method).toBe('GET');
    expect(calls[0].init.headers['X-Auth-Key']).toBe('key-123');
  });

  it('sends by email or by phone with the documented body, and resends by IntakeId', async () => {
    const { calls, exchange } = recorder([
      { status: 200, body: JSON.stringify({ Id: 'i-1', Status: 'Sent', QuestionnaireId: 'a', QuestionnaireName: 'Intake' }) },
      { status: 200, body: JSON.stringify({ Id: 'i-2', Status: 'Sent', QuestionnaireId: 'a', QuestionnaireName: 'Intake' }) },
      { status: 200, body: '' },
    ]);
    const iq = new IntakeQClient(config, exchange);
    expect((await iq.send({ questionnaireId: 'a', clientName: 'Ina Take', email: 'ina@example.com', externalClientId: 'p-1' })).Id).toBe('i-1');
    expect(calls[0].url).toBe('https://intakeq.com/api/v1/intakes/send');
    expect(JSON.parse(calls[0].init.body as string)).toEqual({
      QuestionnaireId: 'a',
      ClientName: 'Ina Take',
      ClientEmail: 'ina@example.com',
      ExternalClientId: 'p-1',
    });
    await iq.send({ questionnaireId: 'a', clientName: 'Ina Take', phone: '+15550102030', externalClientId: 'p-1' });
    expect(JSON.parse(calls[1].init.body as string)).toEqual({
      QuestionnaireId: 'a',
      ClientName: 'Ina Take',
      ClientPhone: '+15550102030',
      ExternalClientId: 'p-1',
    });
    await iq.resend('i-1');
    expect(calls[2].url).toBe('https://intakeq.com/api/v1/intakes/resend');
    expect(JSON.parse(calls[2].init.body as string)).toEqual({ IntakeId: 'i-1' });
  });

  it('queries summaries by external client id and reads one intake by id', async () => {
    const { calls, exchange } = recorder([
      { status: 200, body: JSON.stringify([{ ...INTAKE, Questions: undefined }]) },
      { status: 200, body: JSON.stringify(INTAKE) },
    ]);
    const iq = new IntakeQClient(config, exchange);
    expect(await iq.summaries({ externalClientId: 'p-1' })).toHaveLength(1);
    expect(calls[0].url).toBe('https://intakeq.com/api/v1/intakes/summary?externalClientId=p-1');
    expect((await iq.intake(INTAKE.Id)).Questions).toHaveLength(3);
    expect(calls[1].url).toBe(`https://intakeq.com/api/v1/intakes/${INTAKE.Id}`);
  });

  it('turns an error answer into an IntakeQError that names only the status', async () => {
    const { exchange } = recorder([{ status: 401, body: 'Invalid API key for Ina Take' }]);
    const error = await new IntakeQClient(config, exchange).questionnaires().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntakeQError);
    expect((error as IntakeQError).status).toBe(401);
    expect((error as Error).message).not.toContain('Ina');
  });

  it('keeps the submission fields of the spec, without office-use questions', () => {
    expect(isSubmitted('Completed')).toBe(true);
    expect(isSubmitted('Sent')).toBe(false);
    expect(toSubmission(INTAKE)).toEqual({
      Status: 'Completed',
      DateSubmitted: '2025-11-26T00:00:00.000Z',
      QuestionnaireId: '5f1a2b3c',
      Questions: [
        { Id: 'allergies', Text: 'Allergies', Answer: 'Penicillin', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
        { Id: 'tobacco', Text: 'Tobacco?', Answer: '', QuestionType: 'MultipleChoice', QuestionSubType: null },
      ],
    });
  });
});
