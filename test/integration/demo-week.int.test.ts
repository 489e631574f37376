import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime.js';
import type { DemoWeekResult } from '../../infra/local/seed/demo-week.js';
import type { TranscriptionResult } from '../../shared/ai/transcription-schema.js';
import { eventually } from '../support/eventually.js';
import { callApi, signInAs } from '../support/restartable-runtime.js';

/*
 * `npm start`'s week of clinic life, on a runtime and data folder of this file's own: what it
 * makes by kind, that its visits fall in this week and next, that every item it made opens
 * through the API, and that a restart on the same folder adds nothing.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'tidewell-demo-week-'));
let runtime: LocalRuntime | undefined;
let result: DemoWeekResult;
let provider: string;

// As under `npm start`: the Copilot answers from the local assistant, so the seed's conversation is made.
process.env.TIDEWELL_AI_LOCAL_ASSISTANT = '1';
const start = () => startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true, demoWeek: true });

beforeAll(async () => {
  runtime = await start();
  const read = () => JSON.parse(readFileSync(join(dataDir, 'demo-week.json'), 'utf8')) as DemoWeekResult;
  // The start may return before the scribe's recorded visit is recognised; the file says when it is.
  result = await eventually(
    'the scribe part of the demo week',
    async () => read(),
    (r) => r.complete === true,
    { within: 180_000, every: 500 },
  );
  provider = await signInAs(runtime, 'provider@demo.tidewell.local');
}, 420_000);

afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo week seed', () => {
  it('makes every kind without an error', () => {
    expect(result.errors).toEqual([]);
    const c = result.counts;
    expect(c.appointments).toBeGreaterThanOrEqual(40);
    expect(c['recurring series']).toBe(1);
    expect(c['moved occurrences']).toBe(1);
    expect(c['cancelled occurrences']).toBe(1);
    expect(c['days off']).toBe(1);
    expect(c.conversations).toBe(14);
    expect(c['opted-out phones']).toBe(1);
    expect(c.pictures).toBe(1);
    expect(c['scheduled texts']).toBe(2);
    expect(c['unsigned ePHI waivers']).toBe(1);
    expect(c['chart items']).toBeGreaterThanOrEqual(30);
    for (const type of ['NOTE', 'PHONE_CALL', 'EMAIL', 'SMS_LOG', 'VITALS', 'SALES', 'RX', 'RX_DOSESPOT'])
      expect(c[`notes ${type}`], type).toBeGreaterThanOrEqual(1);
    expect(c.addenda).toBe(1);
    expect(c['drafts assigned']).toBe(1);
    expect(c['tasks open']).toBe(5);
    expect(c['tasks completed']).toBe(2);
    expect(c.reminders).toBe(3);
    expect(c.notifications).toBe(7);
    expect(c['missed calls']).toBe(1);
    expect(c.voicemails).toBe(1);
    expect(c['faxes inbound']).toBe(2);
    expect(c['faxes outbound']).toBe(1);
    expect(c['lab orders']).toBe(3);
    expect(c['lab results reviewed']).toBe(2);
    expect(c['copilot conversations']).toBe(1);
    expect(c['drive files']).toBe(5);
    expect(c['scribe notes']).toBe(1);
    expect(c['scribe proposals accepted']).toBe(1);
    expect(c['scribe proposals rejected']).toBe(1);
  });

  it('books visits of each type at both locations, this week and next only', async () => {
    const settings = await callApi(runtime!, provider, 'GET', '/v1/practices/settings/calendar');
    expect(settings.body.reminderLeadHours).toBe(12);
    const from = new Date(Date.now() - 8 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 15 * 86_400_000).toISOString();
    const range = await callApi(runtime!, provider, 'GET', `/v1/appointments?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`);
    expect(range.status).toBe(200);
    const occurrences = range.body.occurrences as { start: string; appointmentTypeId: string; bookingLocationId: string | null; recurring: boolean }[];
    expect(new Set(occurrences.map((o) => o.appointmentTypeId))).toEqual(new Set(['apt-demo-follow-up', 'apt-demo-new-patient', 'apt-demo-telehealth']));
    expect(new Set(occurrences.map((o) => o.bookingLocationId))).toEqual(new Set(['loc-demo-main', 'loc-demo-north', null]));
    expect(occurrences.some((o) => o.recurring)).toBe(true);
    // Monday of this week to the Friday after next, whatever day today is.
    for (const o of occurrences.filter((x) => !x.recurring)) {
      const days = (Date.parse(o.start) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(-7);
      expect(days).toBeLessThan(14);
    }
  });

  it('shows three draws of a rising A1c, the latest abnormal one waiting for review', async () => {
    const trend = await callApi(runtime!, provider, 'GET', '/v2/notes/labs/link/pat-0024/4548-4');
    expect(trend.status).toBe(200);
    const points = trend.body.points as { value: number; issued: string; interpretation?: string }[];
    expect(points.map((p) => p.value)).toEqual([7.2, 7.6, 8.1]);
    expect(points.every((p) => p.interpretation === 'H')).toBe(true);
    // Half a year ago, three months ago and last week: a trend, not three results of one day.
    const ages = points.map((p) => (Date.now() - Date.parse(p.issued)) / 86_400_000);
    expect(ages[0]).toBeGreaterThan(150);
    expect(ages[1]).toBeGreaterThan(60);
    expect(ages[2]).toBeLessThan(14);
    const reviews = await callApi(runtime!, provider, 'GET', '/v1/notes/labs/reviews?status=PENDING');
    const pending = (reviews.body.reviews as { patientName: string; severity: string }[]).filter((r) => r.patientName === 'Michael Chen');
    expect(pending).toHaveLength(1);
    expect(pending[0]!.severity).toBe('abnormal');
  });

  it('sends the signed visit note by fax and dispenses the in-house prescription from stock', async () => {
    const faxes = await callApi(runtime!, provider, 'GET', '/v1/faxes?direction=OUTBOUND');
    expect((faxes.body.faxes as { patientId?: string }[]).filter((f) => f.patientId === 'pat-0002')).toHaveLength(1);
    const stock = await callApi(runtime!, provider, 'GET', '/v2/inventories/inv-amoxicillin-500');
    // 500 in stock, 20 sold on Aisha's signed sale and 20 dispensed on her prescription.
    expect(stock.body.quantityInStock).toBe(460);
    const synced = await callApi(runtime!, provider, 'GET', '/v2/notes?patientId=pat-0002&noteTypes=RX_DOSESPOT');
    expect((synced.body.notes as { status: string }[]).map((n) => n.status)).toEqual(['SIGNED']);
  });

  it("keeps Dr. Okafor's Copilot conversation about Michael Chen, answered from his chart", async () => {
    const list = await callApi(runtime!, provider, 'GET', '/v1/ai/conversations?patientId=pat-0024');
    const conversations = list.body.conversations as { conversationId: string }[];
    expect(conversations).toHaveLength(1);
    const messages = await callApi(runtime!, provider, 'GET', `/v1/ai/conversations/${conversations[0]!.conversationId}/messages`);
    const turns = messages.body.messages as { role: string; content: string }[];
    expect(turns.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(turns[3]!.content).toContain('Metformin');
  });

  it("keeps the AI scribe's note of James Whitaker's recorded visit, with its audio, evidence and decided proposals", async () => {
    const path = result.paths.find((x) => x.endsWith('/result'))!;
    const scribe = (await callApi(runtime!, provider, 'GET', path)).body as TranscriptionResult;
    expect(scribe.engines.speech.kind).toBe('local-pocketsphinx');
    const ids = new Set(scribe.transcript.map((s) => s.id));
    const evidenced = scribe.note.flatMap((s) => s.sentences).filter((s) => s.segmentIds.length > 0);
    expect(evidenced.length).toBeGreaterThan(2);
    for (const s of evidenced) for (const id of s.segmentIds) expect(ids.has(id)).toBe(true);
    expect(scribe.proposals.find((p) => p.kind === 'medication-start')).toMatchObject({ status: 'ACCEPTED' });
    expect(scribe.proposals.find((p) => p.kind === 'vitals')).toMatchObject({ status: 'REJECTED' });
    const meds = await callApi(runtime!, provider, 'GET', '/v1/patients/pat-0002/medications');
    expect(JSON.stringify(meds.body)).toContain('Ibuprofen');
    const status = await callApi(runtime!, provider, 'GET', path.replace(/\/result$/, ''));
    expect(status.body).toMatchObject({ status: 'completed', patientId: 'pat-0002' });
    const draft = await callApi(runtime!, provider, 'GET', `/v1/notes/${status.body.noteId as string}`);
    expect(draft.body).toMatchObject({ status: 'DRAFT', noteType: 'NOTE' });
    for (const heading of ['Subjective', 'Assessment', 'Plan']) expect(draft.body.data.text).toContain(`\n${heading}\n`);
    const recording = await callApi(runtime!, provider, 'GET', path.replace(/\/result$/, '/recording'));
    const audio = await fetch(recording.body.signedUrl as string);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });

  it('opens every seeded item through the API', async () => {
    expect(result.paths.length).toBeGreaterThan(100);
    const failed: string[] = [];
    for (const path of result.paths) {
      const res = await fetch(`${runtime!.outputs.apiUrl}${path}`, { headers: { authorization: `Bearer ${provider}` } });
      await res.arrayBuffer();
      if (res.status !== 200) failed.push(`${path} ${res.status}`);
    }
    expect(failed).toEqual([]);
  });

  it('adds nothing on a restart of the same data folder', async () => {
    const before = await callApi(runtime!, provider, 'GET', '/v1/tasks');
    await runtime!.stop();
    runtime = await start();
    provider = await signInAs(runtime, 'provider@demo.tidewell.local');
    const after = await callApi(runtime, provider, 'GET', '/v1/tasks');
    expect(after.status).toBe(200);
    expect(JSON.stringify(after.body).length).toBe(JSON.stringify(before.body).length);
  }, 240_000);
});
