import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

/* Every way vitals are entered checks the shared ranges (shared/notes/vitals-ranges.ts). */

let provider: string;
let patientId: string;
const run = Date.now().toString(36);
const IMPOSSIBLE = 'Temperature 991 °F is not possible. Enter a value from 56 to 116 °F.';
const UNCONFIRMED = 'Temperature 104.5 °F is outside the usual range 95–104 °F. Confirm it to save.';

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Vera', lastName: `Ranges${run}`, gender: 'female', dob: '1979-04-11' });
  expect(p.status).toBe(201);
  patientId = p.body.id;
});

async function vitalsNote() {
  const res = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'VITALS', patientId });
  expect(res.status).toBe(201);
  return res.body as { noteId: string; noteVersion: number };
}

describe('vitals ranges', () => {
  it('refuses an impossible value with its range in clear words and keeps what was saved', async () => {
    const note = await vitalsNote();
    const first = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: { heartRate: '72', temp: '98.6' } });
    expect(first.status).toBe(200);

    const refused = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: first.body.noteVersion, data: { heartRate: '72', temp: '991' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: IMPOSSIBLE, fieldErrors: { temp: IMPOSSIBLE } });
    const kept = await api(provider, 'GET', `/v1/notes/${note.noteId}`);
    expect(kept.body).toMatchObject({ noteVersion: first.body.noteVersion, data: { heartRate: 72, temp: 98.6 } });

    // Signing with it is refused the same way, and so is a note created with it.
    const sign = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: first.body.noteVersion, data: { temp: 991 } });
    expect(sign.status).toBe(400);
    expect(sign.body.message).toBe(IMPOSSIBLE);
    const created = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'VITALS', patientId, data: { spo2: 101 } });
    expect(created.status).toBe(400);
    expect(created.body.fieldErrors).toEqual({ spo2: 'SpO2 101% is not possible. Enter a value from 20 to 100%.' });
  });

  it('saves an unusual value only once the clinician confirmed it at that value, and keeps the confirmation on the note', async () => {
    const note = await vitalsNote();
    const unasked = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: { temp: '104.5' } });
    expect(unasked.status).toBe(400);
    expect(unasked.body).toMatchObject({ message: UNCONFIRMED, fieldErrors: { temp: UNCONFIRMED } });

    // A confirmation of another value does not count.
    const otherValue = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: { temp: '104.5', confirmedVitals: { temp: 104 } } });
    expect(otherValue.status).toBe(400);

    const confirmed = await api(provider, 'POST', `/v1/notes/${note.noteId}`, { noteVersion: 1, data: { temp: '104.5', confirmedVitals: { temp: 104.5 } } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ temp: 104.5, confirmedVitals: { temp: 104.5 } });

    // Changing the value asks again; signing the confirmed value records it as confirmed.
    const changed = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, {
      noteVersion: confirmed.body.noteVersion,
      data: { temp: 105.5, confirmedVitals: { temp: 104.5 } },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.message).toBe('Temperature 105.5 °F is outside the usual range 95–104 °F. Confirm it to save.');
    const signed = await api(provider, 'POST', `/v1/notes/${note.noteId}/sign`, { noteVersion: confirmed.body.noteVersion });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: 'SIGNED', data: { temp: 104.5, confirmedVitals: { temp: 104.5 } } });

    // A usual value drops a confirmation that no longer applies.
    const usual = await vitalsNote();
    const saved = await api(provider, 'POST', `/v1/notes/${usual.noteId}`, { noteVersion: 1, data: { temp: 99, confirmedVitals: { temp: 104.5 } } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.confirmedVitals).toBeUndefined();
  });

  it("checks the scribe's spoken vitals: an impossible one is refused with its range, an unusual one waits in the draft for confirmation", async () => {
    const { client, tableName } = tableClient();
    const at = new Date().toISOString();
    const transcriptionId = randomUUID();
    const proposal = (fields: Record<string, number>) => ({
      proposalId: randomUUID(),
      kind: 'vitals',
      status: 'PROPOSED',
      summary: 'Vitals',
      fields,
      segmentIds: [],
    });
    const proposals = [proposal({ temp: 991, heartRate: 80 }), proposal({ temp: 104.5 })];
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          practiceId: stackEndpoints().practiceId,
          sk: `TRANSCRIPTION#${transcriptionId}`,
          entityType: 'TRANSCRIPTION',
          transcriptionId,
          noteId: randomUUID(),
          patientId,
          authorId: 'u',
          authorEmail: 'provider@demo.tidewell.local',
          authorName: 'Daniel Okafor',
          filesPath: `transcriptions/${transcriptionId}`,
          templateTypes: [],
          status: 'completed',
          createdAt: at,
          updatedAt: at,
          attempts: 1,
          proposals,
        },
      }),
    );
    const impossible = await api(provider, 'POST', `/v1/transcriptions/${transcriptionId}/proposals/${proposals[0]!.proposalId}`, { decision: 'accept' });
    expect(impossible.status).toBe(400);
    expect(impossible.body.message).toBe(IMPOSSIBLE);

    const unusual = await api(provider, 'POST', `/v1/transcriptions/${transcriptionId}/proposals/${proposals[1]!.proposalId}`, { decision: 'accept' });
    expect(unusual.status).toBe(200);
    const draft = await api(provider, 'GET', `/v1/notes/${unusual.body.written.ident}`);
    expect(draft.body).toMatchObject({ noteType: 'VITALS', status: 'DRAFT', data: { temp: 104.5 } });
    expect(draft.body.data.confirmedVitals).toBeUndefined();
    const sign = await api(provider, 'POST', `/v1/notes/${draft.body.noteId}/sign`, { noteVersion: draft.body.noteVersion });
    expect(sign.body.message).toBe(UNCONFIRMED);
  });

  it('an import lists an impossible value as left out with its range and brings in the rest', async () => {
    const observation = (id: string, loinc: string, display: string, value: number, code: string) => ({
      fullUrl: `urn:uuid:${id}`,
      resource: {
        resourceType: 'Observation',
        id,
        status: 'final',
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
        code: { coding: [{ system: 'http://loinc.org', code: loinc, display }], text: display },
        effectiveDateTime: '2026-02-03T10:00:00Z',
        valueQuantity: { value, unit: code, system: 'http://unitsofmeasure.org', code },
      },
    });
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [observation(randomUUID(), '8310-5', 'Body temperature', 991, '[degF]'), observation(randomUUID(), '8867-4', 'Heart rate', 64, '/min')],
    };
    const preview = await api(provider, 'POST', `/v1/patients/${patientId}/fhir-import-preview`, { bundle });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const byName = Object.fromEntries(preview.body.items.map((i: { summary: string; action: string; reason?: string }) => [i.summary, [i.action, i.reason]]));
    expect(byName['Vital sign: Body temperature']).toEqual(['skip', 'Temperature 991 °F is outside the possible range 56–116 °F']);
    expect(byName['Vitals on 2026-02-03: Heart rate']).toEqual(['add', undefined]);

    const imported = await api(provider, 'POST', `/v1/patients/${patientId}/fhir-import`, { bundle });
    expect(imported.status).toBe(200);
    expect(imported.body.added).toBe(1);
    const notes = (await api(provider, 'GET', `/v1/notes?patientId=${patientId}&noteType=VITALS`)).body.notes as { data: Record<string, unknown> }[];
    const brought = notes.filter((n) => n.data.heartRate === 64);
    expect(brought).toHaveLength(1);
    expect(brought[0]!.data.temp).toBeUndefined();
  });
});
