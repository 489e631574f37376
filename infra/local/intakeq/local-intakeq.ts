/**
 * IntakeQ (local stand-in): the intake-forms service `npm start` serves at /local/intakeq. Its API
 * (/local/intakeq/api/v1) answers like IntakeQ's documented one, checks the `X-Auth-Key` header
 * against its own copy of the API key (the `intakeq` entry of the data folder's
 * partner-secrets.json) and validates a send as IntakeQ does. A sent form lands in its outbox page
 * (in place of the email or text the patient would get) with a link to the patient's page; a send
 * with neither email nor phone is messaged by nobody, its answer's `Url` being that page; filling
 * it in and submitting posts IntakeQ's 'Intake Submitted' notice to the practice's webhook URL.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

export const LOCAL_INTAKEQ_LABEL = 'IntakeQ (local stand-in)';
export const LOCAL_INTAKEQ_PREFIX = '/local/intakeq';
const API = '/api/v1';

interface LocalQuestion {
  Id: string;
  Text: string;
  QuestionType: 'OpenQuestion' | 'MultipleChoice';
  QuestionSubType?: 'Multiline' | null;
  Options?: string[];
  Required?: boolean;
}

interface LocalQuestionnaire {
  Id: string;
  Name: string;
  Archived: boolean;
  Anonymous: boolean;
  Questions: LocalQuestion[];
}

export interface LocalIntake {
  Id: string;
  ClientName: string;
  ClientEmail: string | null;
  ClientPhone: string | null;
  ClientId: number;
  Status: 'Sent' | 'Partial' | 'Completed';
  DateCreated: number;
  DateSubmitted: number | null;
  QuestionnaireId: string;
  QuestionnaireName: string;
  ExternalClientId: string | null;
  Questions: { Id: string; Text: string; Answer: string | null; QuestionType: string; QuestionSubType: string | null; OfficeUse: boolean }[];
}

interface OutboxMessage {
  intakeId: string;
  to: string;
  method: 'Email' | 'SMS';
  at: number;
}

interface State {
  nextClientId: number;
  intakes: LocalIntake[];
  outbox: OutboxMessage[];
}

/** A realistic new-patient intake: what a practice sends before a first visit. */
export const LOCAL_QUESTIONNAIRES: LocalQuestionnaire[] = [
  {
    Id: '5f1a2b3c4d5e6f7081920a1b',
    Name: 'New Patient Intake',
    Archived: false,
    Anonymous: false,
    Questions: [
      { Id: 'concern', Text: 'What brings you in today?', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline', Required: true },
      { Id: 'medications', Text: 'Which medications do you take now? (one per line)', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
      {
        Id: 'allergies',
        Text: 'Are you allergic to any medications, foods or other substances? (one per line)',
        QuestionType: 'OpenQuestion',
        QuestionSubType: 'Multiline',
      },
      {
        Id: 'conditions',
        Text: 'Which medical conditions have you been diagnosed with? (one per line)',
        QuestionType: 'OpenQuestion',
        QuestionSubType: 'Multiline',
      },
      { Id: 'surgeries', Text: 'Which surgeries have you had? (one per line)', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
      {
        Id: 'family',
        Text: 'Which conditions run in your family (parents, brothers, sisters)? (one per line)',
        QuestionType: 'OpenQuestion',
        QuestionSubType: 'Multiline',
      },
      {
        Id: 'tobacco',
        Text: 'Do you smoke or use tobacco?',
        QuestionType: 'MultipleChoice',
        Options: ['Never', 'Former', 'Current, some days', 'Current, every day'],
        Required: true,
      },
      { Id: 'alcohol', Text: 'How many alcoholic drinks do you have in a week?', QuestionType: 'OpenQuestion' },
      { Id: 'exercise', Text: 'How often do you exercise?', QuestionType: 'MultipleChoice', Options: ['Rarely', '1-2 times a week', '3 or more times a week'] },
      { Id: 'occupation', Text: 'What is your occupation?', QuestionType: 'OpenQuestion' },
    ],
  },
  {
    Id: '5f1a2b3c4d5e6f7081920a2c',
    Name: 'Annual Health Update',
    Archived: false,
    Anonymous: false,
    Questions: [
      {
        Id: 'changes',
        Text: 'What has changed in your health since your last visit?',
        QuestionType: 'OpenQuestion',
        QuestionSubType: 'Multiline',
        Required: true,
      },
      { Id: 'medications', Text: 'Which medications do you take now? (one per line)', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
      { Id: 'allergies', Text: 'Any new allergies? (one per line)', QuestionType: 'OpenQuestion', QuestionSubType: 'Multiline' },
    ],
  },
  {
    Id: '5f1a2b3c4d5e6f7081920a3d',
    Name: 'COVID-19 Screening (2020)',
    Archived: true,
    Anonymous: false,
    Questions: [{ Id: 'symptoms', Text: 'Any symptoms?', QuestionType: 'OpenQuestion' }],
  },
];

/** Writes the practice's IntakeQ entry once (the API key and webhook token stay across restarts). */
export function ensureLocalIntakeQ(secretsFile: string, apiOrigin: string, appOrigin: string): void {
  const secrets = existsSync(secretsFile) ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>) : {};
  let entry: { apiKey?: string; webhookToken?: string } = {};
  try {
    entry = JSON.parse(secrets.intakeq ?? '{}') as typeof entry;
  } catch {
    /* rewritten below */
  }
  secrets.intakeq = JSON.stringify({
    apiKey: entry.apiKey ?? randomBytes(20).toString('hex'),
    webhookToken: entry.webhookToken ?? randomBytes(24).toString('base64url'),
    baseUrl: `${apiOrigin}${LOCAL_INTAKEQ_PREFIX}${API}`,
    appUrl: `${appOrigin}${LOCAL_INTAKEQ_PREFIX}`,
  });
  writeFileSync(secretsFile, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 200_000) throw new Error('Request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}main{max-width:40rem}label,legend{display:block;margin-top:1rem;font-weight:600}fieldset{border:0;padding:0;margin:0}fieldset label{font-weight:400;margin-top:.25rem}input[type=text],textarea{font:inherit;box-sizing:border-box;width:100%}textarea{min-height:4.5rem}button{display:block;margin-top:1.25rem;padding:.5rem 1.25rem;font:inherit;background:#005377;color:#fff;border:0;border-radius:4px}a{color:#005377}:focus-visible{outline:3px solid #005377;outline-offset:2px}.tag{display:inline-block;background:#fff4ce;border:1px solid #8a6d00;padding:0 .5rem;border-radius:4px;font-size:.875rem;font-weight:400}table{border-collapse:collapse;width:100%}.scroll{overflow-x:auto}td,th{border:1px solid #767676;padding:.25rem .5rem;text-align:left}.req{color:#a4262c}';

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} (${LOCAL_INTAKEQ_LABEL})</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)} <span class="tag">${LOCAL_INTAKEQ_LABEL}</span></h1>${body}</main></body></html>`;
}

export function createLocalIntakeQ(opts: { dataDir: string; secretsFile: string; webhookUrl: string; now?: () => Date }) {
  const file = join(opts.dataDir, 'intakeq.json');
  const state: State = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as State) : { nextClientId: 1, intakes: [], outbox: [] };
  const now = () => (opts.now ?? (() => new Date()))().getTime();

  function save(): void {
    mkdirSync(opts.dataDir, { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  }

  function account(): { apiKey: string; webhookToken: string; appUrl?: string } | null {
    try {
      const entry = (JSON.parse(readFileSync(opts.secretsFile, 'utf8')) as Record<string, string>).intakeq;
      return entry ? (JSON.parse(entry) as { apiKey: string; webhookToken: string; appUrl?: string }) : null;
    } catch {
      return null;
    }
  }

  function authorized(req: IncomingMessage): boolean {
    const key = account()?.apiKey;
    const given = req.headers['x-auth-key'];
    if (!key || typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(key);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  const json = (res: ServerResponse, status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const text = (res: ServerResponse, status: number, message: string) =>
    void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
  const page = (res: ServerResponse, status: number, title: string, body: string) =>
    void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html(title, body));

  const summary = ({ Questions: _q, ClientPhone: _p, ...rest }: LocalIntake) => ({
    ...rest,
    Url: `${account()?.appUrl ?? LOCAL_INTAKEQ_PREFIX}/fill/${encodeURIComponent(rest.Id)}`,
  });
  const questionnaire = (id: string) => LOCAL_QUESTIONNAIRES.find((q) => q.Id === id);

  /** IntakeQ's notice to the practice's webhook URL; the practice reads the intake back by its id. */
  async function notify(intake: LocalIntake): Promise<number> {
    const token = account()?.webhookToken ?? '';
    const res = await fetch(`${opts.webhookUrl}?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        IntakeId: intake.Id,
        Type: 'Intake Submitted',
        ClientId: intake.ClientId,
        ExternalClientId: intake.ExternalClientId,
        PracticeId: 'local-practice',
      }),
    });
    await res.text();
    return res.status;
  }

  function fillPage(intake: LocalIntake, errors: Record<string, string>, values: Record<string, string>): string {
    const q = questionnaire(intake.QuestionnaireId)!;
    const fields = q.Questions.map((question) => {
      const id = `q-${question.Id}`;
      const required = question.Required ? ' <span class="req">(required)</span>' : '';
      const error = errors[question.Id] ? `<p id="${id}-error" class="req" role="alert">${escapeHtml(errors[question.Id])}</p>` : '';
      const described = errors[question.Id] ? ` aria-describedby="${id}-error" aria-invalid="true"` : '';
      const value = values[question.Id] ?? '';
      if (question.QuestionType === 'MultipleChoice') {
        const options = (question.Options ?? [])
          .map(
            (o, i) =>
              `<label><input type="radio" name="${question.Id}" value="${escapeHtml(o)}" id="${id}-${i}"${value === o ? ' checked' : ''}${question.Required ? ' required' : ''}> ${escapeHtml(o)}</label>`,
          )
          .join('');
        return `<fieldset${described}><legend>${escapeHtml(question.Text)}${required}</legend>${options}</fieldset>${error}`;
      }
      const control =
        question.QuestionSubType === 'Multiline'
          ? `<textarea id="${id}" name="${question.Id}"${question.Required ? ' required' : ''} maxlength="4000"${described}>${escapeHtml(value)}</textarea>`
          : `<input type="text" id="${id}" name="${question.Id}"${question.Required ? ' required' : ''} maxlength="500" value="${escapeHtml(value)}"${described}>`;
      return `<label for="${id}">${escapeHtml(question.Text)}${required}</label>${control}${error}`;
    }).join('');
    return `<p>Hello ${escapeHtml(intake.ClientName)}, please complete this form before your visit.</p><form method="post" action="${LOCAL_INTAKEQ_PREFIX}/fill/${encodeURIComponent(intake.Id)}" novalidate><h2>${escapeHtml(q.Name)}</h2>${fields}<button type="submit">Submit form</button></form>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(LOCAL_INTAKEQ_PREFIX.length) || '/';

    if (path.startsWith(`${API}/`)) {
      if (!authorized(req)) return text(res, 401, 'Invalid API key');
      const route = path.slice(API.length);
      if (req.method === 'GET' && route === '/questionnaires')
        return json(
          res,
          200,
          LOCAL_QUESTIONNAIRES.map(({ Questions: _q, ...q }) => q),
        );
      if (req.method === 'POST' && route === '/intakes/send') {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(await readBody(req)) as Record<string, unknown>;
        } catch {
          return text(res, 400, 'Invalid JSON');
        }
        const q = typeof body.QuestionnaireId === 'string' ? questionnaire(body.QuestionnaireId) : undefined;
        if (!q || q.Archived) return text(res, 400, 'Questionnaire not found');
        const name = typeof body.ClientName === 'string' ? body.ClientName.trim() : '';
        if (!name && body.ClientId === undefined) return text(res, 400, 'ClientId or ClientName is required');
        const email = typeof body.ClientEmail === 'string' ? body.ClientEmail.trim() : '';
        const phone = typeof body.ClientPhone === 'string' ? body.ClientPhone.replace(/[^\d+]/g, '') : '';
        if (email && !EMAIL.test(email)) return text(res, 400, 'ClientEmail is not valid');
        if (phone && !/^\+?\d{10,15}$/.test(phone)) return text(res, 400, 'ClientPhone is not valid');
        const external = typeof body.ExternalClientId === 'string' ? body.ExternalClientId : null;
        const known = external ? state.intakes.find((i) => i.ExternalClientId === external) : undefined;
        const intake: LocalIntake = {
          Id: randomUUID(),
          ClientName: name,
          ClientEmail: email || null,
          ClientPhone: phone || null,
          ClientId: known?.ClientId ?? state.nextClientId++,
          Status: 'Sent',
          DateCreated: now(),
          DateSubmitted: null,
          QuestionnaireId: q.Id,
          QuestionnaireName: q.Name,
          ExternalClientId: external,
          Questions: q.Questions.map((x) => ({
            Id: x.Id,
            Text: x.Text,
            Answer: null,
            QuestionType: x.QuestionType,
            QuestionSubType: x.QuestionSubType ?? null,
            OfficeUse: false,
          })),
        };
        state.intakes.push(intake);
        // Without an email or phone IntakeQ messages nobody: the sender delivers the intake's Url itself.
        if (email || phone) state.outbox.push({ intakeId: intake.Id, to: email || phone, method: email ? 'Email' : 'SMS', at: now() });
        save();
        return json(res, 200, summary(intake));
      }
      if (req.method === 'POST' && route === '/intakes/resend') {
        let body: { IntakeId?: unknown };
        try {
          body = JSON.parse(await readBody(req)) as { IntakeId?: unknown };
        } catch {
          return text(res, 400, 'Invalid JSON');
        }
        const intake = state.intakes.find((i) => i.Id === body.IntakeId);
        if (!intake) return text(res, 404, 'Intake not found');
        if (intake.Status === 'Completed') return text(res, 400, 'This intake has already been completed');
        if (!intake.ClientEmail && !intake.ClientPhone) return text(res, 400, 'The intake has no email or phone to resend to');
        state.outbox.push({ intakeId: intake.Id, to: intake.ClientEmail ?? intake.ClientPhone ?? '', method: intake.ClientEmail ? 'Email' : 'SMS', at: now() });
        save();
        return json(res, 200, summary(intake));
      }
      if (req.method === 'GET' && route === '/intakes/summary') {
        const all = url.searchParams.get('all') === 'true';
        const external = url.searchParams.get('externalClientId');
        const list = state.intakes.filter((i) => (all || i.Status === 'Completed') && (!external || i.ExternalClientId === external));
        return json(res, 200, list.slice(0, 100).map(summary));
      }
      const one = /^\/intakes\/([A-Za-z0-9-]+)$/.exec(route);
      if (req.method === 'GET' && one) {
        const intake = state.intakes.find((i) => i.Id === one[1]);
        return intake ? json(res, 200, { ...summary(intake), Questions: intake.Questions }) : text(res, 404, 'Intake not found');
      }
      return text(res, 404, 'Not found');
    }

    if (req.method === 'GET' && (path === '/' || path === '')) {
      const rows = [...state.outbox]
        .reverse()
        .slice(0, 200)
        .map((m) => {
          const intake = state.intakes.find((i) => i.Id === m.intakeId);
          if (!intake) return '';
          const link =
            intake.Status === 'Completed'
              ? 'Submitted'
              : `<a href="${LOCAL_INTAKEQ_PREFIX}/fill/${encodeURIComponent(intake.Id)}">Open ${escapeHtml(intake.QuestionnaireName)} for ${escapeHtml(intake.ClientName)}</a>`;
          return `<tr><td>${new Date(m.at).toLocaleString('en-US')}</td><td>${m.method}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(intake.QuestionnaireName)}</td><td>${link}</td></tr>`;
        })
        .join('');
      return page(
        res,
        200,
        'IntakeQ',
        `<p>Forms sent from Tidewell arrive here instead of the patient's email or phone. Open one to fill it in as the patient.</p><h2>Sent forms</h2>${rows ? `<div class="scroll" role="region" aria-label="Sent forms" tabindex="0"><table><thead><tr><th>Sent</th><th>By</th><th>To</th><th>Form</th><th>Patient's page</th></tr></thead><tbody>${rows}</tbody></table></div>` : '<p>No forms sent yet.</p>'}`,
      );
    }

    const fill = /^\/fill\/([A-Za-z0-9-]+)$/.exec(path);
    if (fill) {
      const intake = state.intakes.find((i) => i.Id === fill[1]);
      if (!intake) return page(res, 404, 'Form not found', '<p>This form link is not valid.</p>');
      if (intake.Status === 'Completed') return page(res, 200, 'Form submitted', '<p role="status">Thank you. This form has been submitted.</p>');
      if (req.method === 'GET') return page(res, 200, intake.QuestionnaireName, fillPage(intake, {}, {}));
      if (req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        const q = questionnaire(intake.QuestionnaireId)!;
        const values: Record<string, string> = {};
        const errors: Record<string, string> = {};
        for (const question of q.Questions) {
          const value = (form.get(question.Id) ?? '').trim().slice(0, 4000);
          values[question.Id] = value;
          if (question.Required && !value) errors[question.Id] = 'This question is required.';
          if (value && question.QuestionType === 'MultipleChoice' && !(question.Options ?? []).includes(value))
            errors[question.Id] = 'Choose one of the options.';
        }
        if (Object.keys(errors).length) return page(res, 400, intake.QuestionnaireName, fillPage(intake, errors, values));
        intake.Questions = intake.Questions.map((x) => ({ ...x, Answer: values[x.Id] ?? '' }));
        intake.Status = 'Completed';
        intake.DateSubmitted = now();
        save();
        let delivered = 0;
        try {
          delivered = await notify(intake);
        } catch {
          delivered = 0;
        }
        return page(
          res,
          200,
          'Form submitted',
          `<p role="status">Thank you. Your answers were sent to the practice.</p>${delivered >= 200 && delivered < 300 ? '' : `<p>The practice's webhook answered ${delivered || 'nothing'}.</p>`}`,
        );
      }
    }

    return page(res, 404, 'Not found', '<p>No such page.</p>');
  }

  return { handle, state, notify: (intakeId: string) => notify(state.intakes.find((i) => i.Id === intakeId)!) };
}
