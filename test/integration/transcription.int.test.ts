import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResult } from '../../shared/ai/transcription-schema.js';
import { eventually } from '../support/eventually.js';
import { api, patientAuditTrail, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

/*
 * The whole local pipeline: flite speaks a visit, the browser's upload or recording chunks go to
 * the files store through the presigned URLs, the same state machine definition the stack deploys
 * runs the worker (ffmpeg, pocketsphinx, the rule-based formatter), and the draft note receives the
 * SOAP note and the after-visit summary.
 */
let provider: string;
let patientId: string;
const run = Date.now().toString(36);
const dir = mkdtempSync(join(tmpdir(), 'tidewell-scribe-'));

const VISIT =
  'The patient reports a headache for three days. Blood pressure is one hundred thirty over eighty. ' +
  'This is likely a tension headache. Start ibuprofen four hundred milligrams. Follow up in two weeks.';

function speak(text: string, name: string, voice = 'slt'): string {
  const path = join(dir, name);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', path]);
  return path;
}

function webm(wav: string, name: string): Buffer {
  const path = join(dir, name);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '64k', path]);
  return readFileSync(path);
}

async function draftNote(): Promise<string> {
  const res = await api(provider, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId });
  expect(res.status).toBe(201);
  return res.body.noteId as string;
}

async function put(signedUrl: string, bytes: Uint8Array, contentType: string) {
  const res = await fetch(signedUrl, { method: 'PUT', headers: { 'content-type': contentType, origin: stackOutputs().webUrl }, body: new Uint8Array(bytes) });
  expect(res.status).toBe(200);
}

async function upload(noteId: string, fileName: string, bytes: Uint8Array, contentType: string) {
  const presign = await api(provider, 'POST', '/v1/transcriptions/uploads', { patientId, noteId, fileName, contentType, size: bytes.length });
  expect(presign.status, JSON.stringify(presign.body)).toBe(200);
  await put(presign.body.signedUrl, bytes, contentType);
  return presign.body as { key: string; filesPath: string };
}

async function settle(transcriptionId: string, limitMs = 240_000) {
  const seen: string[] = [];
  const read = async () => {
    const res = await api(provider, 'GET', `/v1/transcriptions/${transcriptionId}`);
    expect(res.status).toBe(200);
    if (seen.at(-1) !== res.body.status) seen.push(res.body.status);
    return res.body;
  };
  const settled = await eventually(`transcription ${transcriptionId} to finish`, read, (t) => ['completed', 'failed', 'cancelled'].includes(t.status), {
    within: limitMs,
    every: 250,
  });
  return { ...settled, seen };
}

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  const p = await api(provider, 'POST', '/v1/patients', { firstName: 'Sol', lastName: `Scribe${run}`, gender: 'female', dob: '1971-03-03' });
  patientId = p.body.id;
});

describe('the AI scribe pipeline, locally', () => {
  it('turns an uploaded recording into a SOAP note with evidence, an after-visit summary and chart proposals', async () => {
    const noteId = await draftNote();
    const wav = readFileSync(speak(VISIT, 'visit.wav', 'rms'));
    const { key, filesPath } = await upload(noteId, 'visit.wav', wav, 'audio/wav');

    const started = await api(provider, 'POST', '/v1/transcriptions', { filesPath, fileKey: key, patientId, noteId });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'queued', noteId, patientId, noteVersion: 2 });
    const done = await settle(started.body.transcriptionId);
    expect(done, done.message).toMatchObject({ status: 'completed' });
    expect(done.seen.at(-1)).toBe('completed');

    const note = await api(provider, 'GET', `/v1/notes/${noteId}`);
    const text: string = note.body.data.text;
    for (const heading of ['Subjective', 'Objective', 'Assessment', 'Plan', 'After-visit summary']) expect(text).toContain(`\n${heading}\n`);
    expect(text).toContain('Generated locally: Local rule-based formatter (no language model)');
    for (const word of ['headache', 'blood pressure', 'ibuprofen', 'milligrams', 'weeks']) expect(text.toLowerCase()).toContain(word);
    expect(note.body.data.transcriptionId).toBe(started.body.transcriptionId);
    expect(note.body.data.formattedText).toContain('<h3>Plan</h3>');

    // The author hears about it: the note's DRAFT notification says the AI note is ready.
    const drafts = await api(provider, 'GET', `/v1/notifications?notificationType=DRAFT&relatedTo=${noteId}`);
    expect(JSON.stringify(drafts.body)).toContain('AI note ready');

    const result = await api(provider, 'GET', `/v1/transcriptions/${started.body.transcriptionId}/result`);
    expect(result.status).toBe(200);
    const body = result.body as TranscriptionResult;
    expect(body.engines.speech).toMatchObject({ kind: 'local-pocketsphinx', local: true });
    expect(body.engines.text).toMatchObject({ kind: 'local-rules', local: true });
    expect(body.transcript.length).toBeGreaterThan(1);
    for (const s of body.transcript) expect(s.end).toBeGreaterThanOrEqual(s.start);
    const ids = new Set(body.transcript.map((s) => s.id));
    const sentences = [...body.note.flatMap((s) => s.sentences), ...body.afterVisitSummary];
    for (const s of sentences) for (const id of s.segmentIds) expect(ids.has(id)).toBe(true);
    expect(sentences.filter((s) => s.segmentIds.length).length).toBeGreaterThan(2);
    const ibuprofen = body.proposals.find((p) => p.kind === 'medication-start');
    expect(ibuprofen).toMatchObject({ status: 'PROPOSED', fields: { productName: 'Ibuprofen', strength: '400', strengthUOM: 'mg' } });
    const vitals = body.proposals.find((p) => p.kind === 'vitals')!;
    expect(vitals.fields).toMatchObject({ systolic: 130, diastolic: 80 });
    const vitalsAccepted = await api(provider, 'POST', `/v1/transcriptions/${started.body.transcriptionId}/proposals/${vitals.proposalId}`, {
      decision: 'accept',
    });
    expect(vitalsAccepted.body).toMatchObject({ status: 'ACCEPTED', written: { entity: 'vitals-note' } });
    const vitalsNote = await api(provider, 'GET', `/v1/notes/${vitalsAccepted.body.written.ident}`);
    expect(vitalsNote.body).toMatchObject({ noteType: 'VITALS', status: 'DRAFT', patientId, data: { systolic: 130, diastolic: 80 } });

    // Nothing reaches the chart before a click: then accept writes it with its link, reject writes nothing.
    const before = await api(provider, 'GET', `/v1/patients/${patientId}/medications`);
    expect(before.body.items.filter((m: { productName: string }) => m.productName === 'Ibuprofen')).toEqual([]);
    const accepted = await api(provider, 'POST', `/v1/transcriptions/${started.body.transcriptionId}/proposals/${ibuprofen!.proposalId}`, {
      decision: 'accept',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', written: { entity: 'medication' } });
    const medications = (await api(provider, 'GET', `/v1/patients/${patientId}/medications`)).body.items as Record<string, unknown>[];
    expect(medications.find((m) => m.ident === accepted.body.written.ident)).toMatchObject({
      productName: 'Ibuprofen',
      strength: '400',
      strengthUOM: 'mg',
      status: 'Active',
      noteDataLinks: [{ dataType: 'medication', dataId: ibuprofen!.proposalId, linkId: started.body.transcriptionId, noteId }],
    });
    const twice = await api(provider, 'POST', `/v1/transcriptions/${started.body.transcriptionId}/proposals/${ibuprofen!.proposalId}`, { decision: 'accept' });
    expect(twice.status).toBe(409);

    const diagnosis = body.proposals.find((p) => p.kind === 'diagnosis')!;
    expect(diagnosis.fields).toMatchObject({ code: 'R51.9' });
    const diagnosesBefore = (await api(provider, 'GET', `/v1/patients/${patientId}/diagnoses`)).body.items;
    const rejected = await api(provider, 'POST', `/v1/transcriptions/${started.body.transcriptionId}/proposals/${diagnosis.proposalId}`, {
      decision: 'reject',
    });
    expect(rejected.body).toMatchObject({ status: 'REJECTED' });
    expect(rejected.body.written).toBeUndefined();
    expect((await api(provider, 'GET', `/v1/patients/${patientId}/diagnoses`)).body.items).toEqual(diagnosesBefore);
    const reread = (await api(provider, 'GET', `/v1/transcriptions/${started.body.transcriptionId}/result`)).body as TranscriptionResult;
    expect(reread.proposals.map((p) => [p.kind, p.status])).toEqual(
      expect.arrayContaining([
        ['medication-start', 'ACCEPTED'],
        ['diagnosis', 'REJECTED'],
      ]),
    );

    const recording = await api(provider, 'GET', `/v1/transcriptions/${started.body.transcriptionId}/recording`);
    expect(recording.body.contentType).toBe('audio/wav');
    const audio = Buffer.from(await (await fetch(recording.body.signedUrl)).arrayBuffer());
    expect(audio.subarray(0, 4).toString('latin1')).toBe('RIFF');

    const audit = await patientAuditTrail(patientId);
    expect(audit.map((a) => `${a.action} ${a.entity}`)).toEqual(
      expect.arrayContaining(['create TRANSCRIPTION', 'read TRANSCRIPTION', 'read RECORDING', 'create RECORDING']),
    );
  }, 400_000);

  it('joins recording chunks in index order, whatever order they arrive in', async () => {
    const noteId = await draftNote();
    const bytes = webm(
      speak('Start ibuprofen four hundred milligrams. The patient is allergic to penicillin. Follow up in three months.', 'chunks.wav'),
      'chunks.webm',
    );
    const third = Math.ceil(bytes.length / 3);
    const pieces = [bytes.subarray(0, third), bytes.subarray(third, 2 * third), bytes.subarray(2 * third)];
    const sessionId = `rec-${run}-chunks`;
    let filesPath = '';
    for (const index of [2, 0, 1]) {
      const presign = await api(provider, 'POST', '/v1/transcriptions/chunks', {
        patientId,
        noteId,
        sessionId,
        index,
        contentType: 'audio/webm;codecs=opus',
        size: pieces[index].length,
      });
      expect(presign.status, JSON.stringify(presign.body)).toBe(200);
      expect(presign.body.key).toBe(`recordings/patients/${patientId}/${noteId}/${sessionId}/chunk-00000${index}.webm`);
      filesPath = presign.body.filesPath;
      await put(presign.body.signedUrl, pieces[index], 'audio/webm;codecs=opus');
    }
    const started = await api(provider, 'POST', '/v1/transcriptions', { filesPath, patientId, noteId, tidewellTemplateTypes: ['SOAP_NOTE', 'VISIT_SUMMARY'] });
    const done = await settle(started.body.transcriptionId);
    expect(done, done.message).toMatchObject({ status: 'completed' });
    const result = (await api(provider, 'GET', `/v1/transcriptions/${started.body.transcriptionId}/result`)).body as TranscriptionResult;
    const spoken = result.transcript.map((s) => s.text).join(' ');
    expect(spoken.indexOf('ibuprofen')).toBeGreaterThanOrEqual(0);
    expect(spoken.indexOf('ibuprofen')).toBeLessThan(spoken.indexOf('penicillin'));
    expect(spoken.indexOf('penicillin')).toBeLessThan(spoken.lastIndexOf('months'));
    expect(result.proposals.map((p) => p.kind)).toEqual(expect.arrayContaining(['medication-start', 'allergy']));
    const allergy = result.proposals.find((p) => p.kind === 'allergy')!;
    const accepted = await api(provider, 'POST', `/v1/transcriptions/${started.body.transcriptionId}/proposals/${allergy.proposalId}`, { decision: 'accept' });
    expect(accepted.body).toMatchObject({ status: 'ACCEPTED', written: { entity: 'allergy' } });
    const allergies = (await api(provider, 'GET', `/v1/patients/${patientId}/allergies`)).body.items as Record<string, unknown>[];
    expect(allergies.find((a) => a.ident === accepted.body.written.ident)).toMatchObject({
      name: 'Penicillin',
      active: true,
      noteDataLinks: [{ dataType: 'allergy', noteId }],
    });
  }, 400_000);

  it('fails a corrupt file with a message, and a retry after the recording arrives completes the run', async () => {
    const noteId = await draftNote();
    const { key, filesPath } = await upload(noteId, 'broken.webm', new Uint8Array(Buffer.from('this is not audio at all, just text bytes')), 'audio/webm');
    const corrupt = await api(provider, 'POST', '/v1/transcriptions', { filesPath, fileKey: key, patientId, noteId });
    const failed = await settle(corrupt.body.transcriptionId);
    expect(failed).toMatchObject({
      status: 'failed',
      message: 'The recording could not be decoded: the file is damaged or is not audio. Please upload the recording again.',
    });
    const unchanged = await api(provider, 'GET', `/v1/notes/${noteId}`);
    expect(unchanged.body.data.text ?? '').toBe('');

    // A recording started before its chunks arrived fails; once they are there, retry completes it.
    const sessionId = `rec-${run}-retry`;
    const empty = `recordings/patients/${patientId}/${noteId}/${sessionId}/`;
    const early = await api(provider, 'POST', '/v1/transcriptions', { filesPath: empty, patientId, noteId });
    expect(await settle(early.body.transcriptionId)).toMatchObject({
      status: 'failed',
      message: 'No recording was found for this transcription. Please record or upload the visit again.',
    });
    const bytes = webm(speak('The patient has a sore throat and a fever for two days. Follow up in two weeks.', 'retry.wav'), 'retry.webm');
    const presign = await api(provider, 'POST', '/v1/transcriptions/chunks', {
      patientId,
      noteId,
      sessionId,
      index: 0,
      contentType: 'audio/webm',
      size: bytes.length,
    });
    await put(presign.body.signedUrl, bytes, 'audio/webm');
    const retried = await api(provider, 'POST', `/v1/transcriptions/${early.body.transcriptionId}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('queued');
    expect(await settle(early.body.transcriptionId)).toMatchObject({ status: 'completed' });
    const again = await api(provider, 'POST', `/v1/transcriptions/${early.body.transcriptionId}/retry`);
    expect(again.body.status).toBe('completed');
    const note = await api(provider, 'GET', `/v1/notes/${noteId}`);
    expect(note.body.data.text.toLowerCase()).toContain('sore throat');

    // An execution of an earlier attempt (one a retry replaced) stops at its first step and leaves the run as it is.
    const { stepFunctions, transcriptionStateMachineArn } = stackEndpoints();
    const sfn = new SFNClient({ endpoint: stepFunctions, region: stackOutputs().region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const stale = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: transcriptionStateMachineArn,
        input: JSON.stringify({ practiceId: stackEndpoints().practiceId, transcriptionId: early.body.transcriptionId, attempt: 1 }),
      }),
    );
    const described = await eventually(
      'the stale execution to stop',
      () => sfn.send(new DescribeExecutionCommand({ executionArn: stale.executionArn })),
      (d) => d.status !== 'RUNNING',
      { within: 20_000 },
    );
    expect(described.status).toBe('FAILED');
    expect(await settle(early.body.transcriptionId)).toMatchObject({ status: 'completed' });
    expect((await api(provider, 'GET', `/v1/notes/${noteId}`)).body.data.text).toBe(note.body.data.text);
  }, 400_000);

  it('lays the visit out in a custom template with wild cards, and refuses a template without one', async () => {
    const noteId = await draftNote();
    const body = 'Reason for visit: {{wild card}}\nExam: {{wild card}}\nPlan: {{wild card}}\nOther: {{wild card}}';
    const template = await api(provider, 'POST', '/v1/practices/templates', { templateName: `Scribe ${run}`, shortcut: `scribe${run}`, body });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const plain = await api(provider, 'POST', '/v1/practices/templates', { templateName: `Plain ${run}`, shortcut: `plain${run}`, body: 'No wild card here' });
    const { key, filesPath } = await upload(noteId, 'visit.wav', readFileSync(speak(VISIT, 'template.wav', 'rms')), 'audio/wav');
    const refused = await api(provider, 'POST', '/v1/transcriptions', { filesPath, fileKey: key, patientId, noteId, templateIdent: plain.body.templateId });
    expect(refused).toMatchObject({ status: 400, body: { message: 'The template must be an active template with a wild card' } });

    const started = await api(provider, 'POST', '/v1/transcriptions', { filesPath, fileKey: key, patientId, noteId, templateIdent: template.body.templateId });
    expect(await settle(started.body.transcriptionId)).toMatchObject({ status: 'completed' });
    const text: string = (await api(provider, 'GET', `/v1/notes/${noteId}`)).body.data.text;
    expect(text).toMatch(/\nPlan: .*ibuprofen/i);
    expect(text).toMatch(/\nExam: .*blood pressure/i);
    expect(text).not.toContain('{{wild card}}');
  }, 400_000);

  it('refuses other audio types, files over 250,000,000 bytes and folders of another note', async () => {
    const noteId = await draftNote();
    const exe = await api(provider, 'POST', '/v1/transcriptions/uploads', { patientId, noteId, fileName: 'visit.exe', contentType: 'audio/wav', size: 10 });
    expect(exe).toMatchObject({ status: 400, body: { message: 'This file is not a supported file format' } });
    const big = await api(provider, 'POST', '/v1/transcriptions/uploads', {
      patientId,
      noteId,
      fileName: 'visit.m4a',
      contentType: 'audio/mp4',
      size: 250_000_001,
    });
    expect(big).toMatchObject({ status: 400, body: { message: 'This file is too large' } });
    const atLimit = await api(provider, 'POST', '/v1/transcriptions/uploads', {
      patientId,
      noteId,
      fileName: 'visit.M4A',
      contentType: 'audio/mp4',
      size: 250_000_000,
    });
    expect(atLimit.status).toBe(200);
    const elsewhere = await api(provider, 'POST', '/v1/transcriptions', { filesPath: `recordings/patients/${patientId}/other-note/x/`, patientId, noteId });
    expect(elsewhere.status).toBe(400);
    const escape = await api(provider, 'POST', '/v1/transcriptions', { filesPath: `recordings/patients/${patientId}/${noteId}/../../x/`, patientId, noteId });
    expect(escape.status).toBe(400);
    const missing = await api(provider, 'GET', '/v1/transcriptions/trn-does-not-exist');
    expect(missing.status).toBe(404);
  });
});
