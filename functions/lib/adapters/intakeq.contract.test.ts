/**
 * IntakeQ publishes no client library or machine-readable description; its Questionnaire API page
 * (https://support.intakeq.com/article/31-intakeq-api) is the oracle. What it states, checked here
 * against the adapter's requests: every endpoint is under https://intakeq.com/api/v1/; every
 * request carries the API key in a header named X-Auth-Key; "Query Intake Forms" is
 * GET /intakes/summary with the query parameters client, startDate, endDate (yyyy-MM-dd), page,
 * all, clientId, externalClientId, updatedSince and deletedOnly; one intake is
 * GET /intakes/[intake-id].
 */
import { describe, expect, it } from 'vitest';
import { INTAKEQ_DEFAULT_API, IntakeQClient, parseIntakeQConfig } from './intakeq.js';

const DOCUMENTED_BASE = 'https://intakeq.com/api/v1/';
const DOCUMENTED_SUMMARY_PARAMETERS = ['client', 'startDate', 'endDate', 'page', 'all', 'clientId', 'externalClientId', 'updatedSince', 'deletedOnly'];

function recording() {
  const calls: { url: string; method: string; headers: Record<string, string> }[] = [];
  const client = new IntakeQClient(parseIntakeQConfig(JSON.stringify({ apiKey: 'key-1', webhookToken: 'w'.repeat(24) }))!, async (url, init) => {
    calls.push({ url, method: init.method, headers: init.headers });
    return {
      status: 200,
      body: url.includes('/summary') ? '[]' : '{"Id":"i-1","Status":"Completed","QuestionnaireId":"q","QuestionnaireName":"Q","Questions":[]}',
    };
  });
  return { calls, client };
}

describe('IntakeQ requests against its Questionnaire API page', () => {
  it('calls under the documented base URL with the key in X-Auth-Key', async () => {
    const { calls, client } = recording();
    await client.summaries({ externalClientId: 'pat_1', all: true });
    await client.intake('3f2a');
    expect(`${INTAKEQ_DEFAULT_API}/`).toBe(DOCUMENTED_BASE);
    for (const c of calls) {
      expect(c.url.startsWith(DOCUMENTED_BASE)).toBe(true);
      expect(c.headers['X-Auth-Key']).toBe('key-1');
    }
  });

  it('queries summaries with documented parameter names only, spelled as documented', async () => {
    const { calls, client } = recording();
    await client.summaries({ externalClientId: 'pat_1', all: true });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/api/v1/intakes/summary');
    for (const name of url.searchParams.keys()) expect(DOCUMENTED_SUMMARY_PARAMETERS).toContain(name);
    expect(Object.fromEntries(url.searchParams)).toEqual({ externalClientId: 'pat_1', all: 'true' });
  });

  it('reads one intake at /intakes/[intake-id]', async () => {
    const { calls, client } = recording();
    await client.intake('3f2a-77');
    expect(calls[0]).toMatchObject({ method: 'GET', url: `${DOCUMENTED_BASE}intakes/3f2a-77` });
  });
});
