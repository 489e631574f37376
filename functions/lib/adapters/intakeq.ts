/**
 * IntakeQ (intake forms), as its API documents it: base https://intakeq.com/api/v1, the API key in
 * the `X-Auth-Key` header, JSON both ways.
 * - GET /questionnaires: [{ Id, Name, Archived, Anonymous }]
 * - POST /intakes/send { QuestionnaireId, ClientName, ClientEmail | ClientPhone, ExternalClientId }: the new intake,
 *   with the patient's page as its `Url`. IntakeQ emails (ClientEmail) or texts (ClientPhone) it; a
 *   form sent by SMS goes without either, and the practice's own carrier texts the `Url` instead, so
 *   the text comes from the practice's number and lands in the patient's conversation.
 * - POST /intakes/resend { IntakeId }
 * - GET /intakes/summary?externalClientId=&all=: intake summaries (no questions)
 * - GET /intakes/{id}: the full intake with its Questions
 * Its webhook posts { IntakeId, Type: 'Intake Submitted', ClientId, ExternalClientId, PracticeId }
 * unsigned, so a notice is only a prompt: the intake is read back from the API by its id.
 *
 * The practice's IntakeQ settings sit in the partner secret JSON under `intakeq`, as a JSON string
 * `{"apiKey": "...", "webhookToken": "...", "baseUrl"?: "...", "appUrl"?: "..."}`.
 */
import type { HttpExchange } from './sms-carrier.js';

export const INTAKEQ_DEFAULT_API = 'https://intakeq.com/api/v1';
export const INTAKEQ_DEFAULT_APP = 'https://intakeq.com';

export interface IntakeQConfig {
  apiKey: string;
  /** The token IntakeQ's webhook URL carries (it signs nothing itself). */
  webhookToken: string;
  baseUrl: string;
  appUrl: string;
}

export function parseIntakeQConfig(text: string | null): IntakeQConfig | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Partial<IntakeQConfig>;
    if (typeof raw.apiKey !== 'string' || !raw.apiKey || typeof raw.webhookToken !== 'string' || raw.webhookToken.length < 16) return null;
    return {
      apiKey: raw.apiKey,
      webhookToken: raw.webhookToken,
      baseUrl: typeof raw.baseUrl === 'string' && raw.baseUrl ? raw.baseUrl.replace(/\/$/, '') : INTAKEQ_DEFAULT_API,
      appUrl: typeof raw.appUrl === 'string' && raw.appUrl ? raw.appUrl.replace(/\/$/, '') : INTAKEQ_DEFAULT_APP,
    };
  } catch {
    return null;
  }
}

export interface IntakeQQuestionnaire {
  Id: string;
  Name: string;
  Archived?: boolean;
  Anonymous?: boolean;
}

export interface IntakeQQuestion {
  Id: string;
  Text: string;
  Answer: string | null;
  QuestionType: string;
  QuestionSubType?: string | null;
  Rows?: unknown[] | null;
  ColumnNames?: string[] | null;
  OfficeUse?: boolean;
  OfficeNote?: string | null;
}

export interface IntakeQIntakeSummary {
  Id: string;
  ClientName?: string | null;
  ClientEmail?: string | null;
  ClientId?: number | null;
  Status: string;
  /** Unix time in milliseconds. */
  DateCreated?: number | null;
  DateSubmitted?: number | null;
  QuestionnaireName: string;
  QuestionnaireId: string;
  ExternalClientId?: string | null;
  /** The patient's page of the intake (answers to a send). */
  Url?: string | null;
}

export interface IntakeQIntake extends IntakeQIntakeSummary {
  Questions: IntakeQQuestion[];
}

export interface IntakeQWebhook {
  IntakeId: string;
  Type: string;
  ClientId?: number | null;
  ExternalClientId?: string | null;
  PracticeId?: string | null;
}

export class IntakeQError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const fetchExchange: HttpExchange = async (url, init) => {
  const response = await fetch(url, init.method === 'GET' ? { method: 'GET', headers: init.headers } : init);
  return { status: response.status, body: await response.text() };
};

export class IntakeQClient {
  constructor(
    private readonly config: Pick<IntakeQConfig, 'apiKey' | 'baseUrl'>,
    private readonly exchange: HttpExchange = fetchExchange,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const answer = await this.exchange(`${this.config.baseUrl}${path}`, {
      method,
      headers: { 'X-Auth-Key': this.config.apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? '' : JSON.stringify(body),
    });
    // IntakeQ answers errors as text or JSON; the body can name the client, so only the status travels.
    if (answer.status >= 300) throw new IntakeQError(answer.status, `IntakeQ answered HTTP ${answer.status}`);
    return (answer.body ? JSON.parse(answer.body) : null) as T;
  }

  async questionnaires(): Promise<IntakeQQuestionnaire[]> {
    const list = await this.call<IntakeQQuestionnaire[]>('GET', '/questionnaires');
    return (Array.isArray(list) ? list : []).filter((q) => !q.Archived);
  }

  send(input: { questionnaireId: string; clientName: string; email?: string; phone?: string; externalClientId: string }): Promise<IntakeQIntakeSummary> {
    return this.call('POST', '/intakes/send', {
      QuestionnaireId: input.questionnaireId,
      ClientName: input.clientName,
      ...(input.email ? { ClientEmail: input.email } : {}),
      ...(input.phone ? { ClientPhone: input.phone } : {}),
      ExternalClientId: input.externalClientId,
    });
  }

  async resend(intakeId: string): Promise<void> {
    await this.call('POST', '/intakes/resend', { IntakeId: intakeId });
  }

  async summaries(query: { externalClientId: string; all?: boolean }): Promise<IntakeQIntakeSummary[]> {
    const q = new URLSearchParams({ externalClientId: query.externalClientId, ...(query.all ? { all: 'true' } : {}) });
    const list = await this.call<IntakeQIntakeSummary[]>('GET', `/intakes/summary?${q.toString()}`);
    return Array.isArray(list) ? list : [];
  }

  intake(intakeId: string): Promise<IntakeQIntake> {
    return this.call('GET', `/intakes/${encodeURIComponent(intakeId)}`);
  }
}

/** IntakeQ's statuses of a filled form ('Completed'; 'Submitted' in some accounts' webhooks). */
export const isSubmitted = (status: string | null | undefined) => status === 'Completed' || status === 'Submitted';

const iso = (ms: number | null | undefined) => (typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : null);
export { iso as intakeDate };

/** Spec notes §3 Submission: Status, DateSubmitted, QuestionnaireId, Questions (Id, Text, Answer, QuestionType, QuestionSubType). */
export function toSubmission(intake: IntakeQIntake) {
  return {
    Status: intake.Status,
    DateSubmitted: iso(intake.DateSubmitted),
    QuestionnaireId: intake.QuestionnaireId,
    Questions: (intake.Questions ?? [])
      .filter((q) => !q.OfficeUse)
      .slice(0, 500)
      .map((q) => ({
        Id: String(q.Id).slice(0, 100),
        Text: String(q.Text ?? '').slice(0, 2000),
        Answer: String(q.Answer ?? '').slice(0, 4000),
        QuestionType: String(q.QuestionType ?? '').slice(0, 100),
        QuestionSubType: q.QuestionSubType ? String(q.QuestionSubType).slice(0, 100) : null,
      })),
  };
}
