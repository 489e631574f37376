import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { BedrockConverse } from '../../../lib/adapters/bedrock-converse.js';
import { DRUG_STARTER } from '../../../lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../../lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { checkedNote, keepKnownEvidence } from '../note/note-model.js';
import { SOAP_NOTE_PROMPT } from '../prompts/soap-note.v1.js';
import { ModelNoteWriter } from './model-note-writer.js';
import { OpenAiCompatibleNoteWriter } from './openai-note-writer.js';

const bedrock = mockClient(BedrockRuntimeClient);
beforeEach(() => bedrock.reset());

const STARTERS = { drugs: async () => new DrugIndex(DRUG_STARTER), icd10: async () => new Icd10Index(ICD10_STARTER) };
const transcript: TranscriptSegment[] = [
  { id: 'seg-1', speaker: 'Speaker 1', start: 0, end: 2.5, text: 'What brings you in today?' },
  { id: 'seg-2', speaker: 'Speaker 2', start: 2.6, end: 5, text: 'I have had a headache for three days.' },
  { id: 'seg-3', speaker: 'Speaker 1', start: 5.1, end: 8, text: 'Start ibuprofen 400 milligrams and follow up in two weeks.' },
];

const toolAnswer = (name: string, input: unknown) => ({
  output: { message: { role: 'assistant' as const, content: [{ toolUse: { toolUseId: `t-${name}`, name, input: input as never } }] } },
  stopReason: 'tool_use' as const,
});

function bedrockWriter() {
  const converse = new BedrockConverse(new BedrockRuntimeClient({ region: 'us-east-1' }), 'us.anthropic.claude-3-5-haiku-20241022-v1:0');
  return new ModelNoteWriter({ kind: 'bedrock', local: false, label: 'Amazon Bedrock' }, (prompt, schema, userText) =>
    converse.structured({ system: prompt.system, prompt: userText, tool: { ...prompt.tool, inputSchema: schema } }), STARTERS);
}

describe('the model note writer on Bedrock Converse', () => {
  it('sends the versioned prompt and the numbered transcript, and keeps only evidence the transcript has', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer('record_soap_note', {
        sections: [
          { heading: 'Subjective', sentences: [{ text: 'Headache for 3 days.', segmentIds: ['seg-2'] }] },
          { heading: 'Plan', sentences: [{ text: 'Start ibuprofen 400 mg.', segmentIds: ['seg-3', 'seg-99'] }, { text: 'Hydrate well.', segmentIds: [] }] },
        ],
      }),
    );
    const note = checkedNote(await bedrockWriter().soapNote(transcript), transcript);

    const input = bedrock.commandCalls(ConverseCommand)[0].args[0].input;
    expect(input.system).toEqual([{ text: SOAP_NOTE_PROMPT.system }]);
    expect(input.messages?.[0].content?.[0].text).toBe(
      'Transcript:\n[seg-1] Speaker 1 (0.0-2.5 s): What brings you in today?\n[seg-2] Speaker 2 (2.6-5.0 s): I have had a headache for three days.\n[seg-3] Speaker 1 (5.1-8.0 s): Start ibuprofen 400 milligrams and follow up in two weeks.',
    );
    expect(input.toolConfig?.toolChoice).toEqual({ tool: { name: 'record_soap_note' } });
    expect(note.map((s) => s.heading)).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    expect(note[1].sentences).toEqual([{ text: 'Nothing was said for this section.', segmentIds: [] }]);
    // seg-99 does not exist: dropped; the unsupported sentence stays, marked by its empty evidence.
    expect(note[3].sentences).toEqual([
      { text: 'Start ibuprofen 400 mg.', segmentIds: ['seg-3'] },
      { text: 'Hydrate well.', segmentIds: [] },
    ]);
  });

  it('takes chart proposals from the tool answer, keeping only ICD-10 codes of the loaded code set', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer('record_chart_proposals', {
        proposals: [
          { kind: 'medication-start', summary: 'Start ibuprofen 400 mg', name: 'Ibuprofen', strength: '400', strengthUOM: 'mg', segmentIds: ['seg-3'] },
          { kind: 'diagnosis', summary: 'Headache', name: 'Headache', icd10Code: 'R51.9', segmentIds: ['seg-2'] },
          { kind: 'diagnosis', summary: 'Made up', name: 'Made up', icd10Code: 'Q99.999', segmentIds: ['seg-2'] },
          { kind: 'vitals', summary: 'BP', vitals: { systolic: 130, diastolic: 80, heartRate: 'fast' }, segmentIds: ['seg-7'] },
        ],
      }),
    );
    const proposals = keepKnownEvidence(await bedrockWriter().chartProposals(transcript), transcript);
    expect(proposals).toEqual([
      { kind: 'medication-start', summary: 'Start ibuprofen 400 mg', fields: { productName: 'Ibuprofen', strength: '400', strengthUOM: 'mg' }, segmentIds: ['seg-3'] },
      { kind: 'diagnosis', summary: 'Headache, unspecified (R51.9)', fields: { name: 'Headache, unspecified', code: 'R51.9', icd10CodeId: 'R519' }, segmentIds: ['seg-2'] },
      { kind: 'vitals', summary: 'BP', fields: { systolic: 130, diastolic: 80 }, segmentIds: [] },
    ]);
    expect(bedrock.commandCalls(ConverseCommand)[0].args[0].input.toolConfig?.tools?.[0].toolSpec?.name).toBe('record_chart_proposals');
  });
});

describe('the model note writer on an OpenAI-compatible endpoint', () => {
  it('posts a JSON chat completion to the configured endpoint and reads the JSON answer', async () => {
    const calls: { url: string; body: Record<string, unknown> }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      const content = JSON.stringify({ sentences: [{ text: 'Take ibuprofen 400 mg.', segmentIds: ['seg-3'] }] });
      return new Response(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }), { status: 200 });
    }) as unknown as typeof fetch;
    const writer = new OpenAiCompatibleNoteWriter('http://127.0.0.1:11434/v1/', 'llama3.1', undefined, fakeFetch);
    const avs = await writer.afterVisitSummary(transcript, []);
    expect(avs).toEqual([{ text: 'Take ibuprofen 400 mg.', segmentIds: ['seg-3'] }]);
    expect(calls[0].url).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(calls[0].body).toMatchObject({ model: 'llama3.1', temperature: 0, response_format: { type: 'json_object' } });
    expect(writer.engine).toMatchObject({ kind: 'openai-compatible', local: true });
  });
});
