import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { BedrockConverse } from '../../../lib/adapters/bedrock-converse.js';
import { DRUG_STARTER } from '../../../lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../../lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { proposalStep } from '../note/asserted-proposals.js';
import { checkedNote, keepKnownEvidence } from '../note/note-model.js';
import { CHART_PROPOSALS_PROMPT } from '../prompts/chart-proposals.v2.js';
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
  return new ModelNoteWriter(
    { kind: 'bedrock', local: false, label: 'Amazon Bedrock' },
    (prompt, schema, userText) => converse.structured({ system: prompt.system, prompt: userText, tool: { ...prompt.tool, inputSchema: schema } }),
    STARTERS,
  );
}

describe('the model note writer on Bedrock Converse', () => {
  it('sends the versioned prompt and the numbered transcript, and keeps only evidence the transcript has', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer('record_soap_note', {
        sections: [
          { heading: 'Subjective', sentences: [{ text: 'Headache for 3 days.', segmentIds: ['seg-2'] }] },
          {
            heading: 'Plan',
            sentences: [
              { text: 'Start ibuprofen 400 mg.', segmentIds: ['seg-3', 'seg-99'] },
              { text: 'Hydrate well.', segmentIds: [] },
            ],
          },
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
      {
        kind: 'medication-start',
        summary: 'Start ibuprofen 400 mg',
        fields: { productName: 'Ibuprofen', strength: '400', strengthUOM: 'mg' },
        segmentIds: ['seg-3'],
      },
      {
        kind: 'diagnosis',
        summary: 'Headache, unspecified (R51.9)',
        fields: { name: 'Headache, unspecified', code: 'R51.9', icd10CodeId: 'R519', term: 'Headache' },
        segmentIds: ['seg-2'],
      },
      { kind: 'vitals', summary: 'BP', fields: { systolic: 130, diastolic: 80 }, segmentIds: [] },
    ]);
    expect(bedrock.commandCalls(ConverseCommand)[0].args[0].input.toolConfig?.tools?.[0].toolSpec?.name).toBe('record_chart_proposals');
  });
});

describe('what a model proposes passes the same assertion check as the local rules', () => {
  const visit: TranscriptSegment[] = [
    { id: 'seg-1', speaker: 'Speaker 1', start: 0, end: 2, text: 'No fever. Throat is red.' },
    { id: 'seg-2', speaker: 'Speaker 2', start: 2, end: 4, text: 'My mother had diabetes.' },
    { id: 'seg-3', speaker: 'Speaker 1', start: 4, end: 6, text: 'We will do a rapid strep test to rule out strep throat.' },
    { id: 'seg-4', speaker: 'Speaker 1', start: 6, end: 8, text: 'She has high blood pressure.' },
  ];

  it("asks for asserted findings with their words and evidence, drops a denied or possible one, and files a relative's as family history", async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer('record_chart_proposals', {
        proposals: [
          // The failure the check exists for: a denied symptom offered as a diagnosis.
          { kind: 'diagnosis', summary: 'Fever', name: 'Fever', term: 'fever', evidence: 'No fever.', icd10Code: 'R50.9', segmentIds: ['seg-1'] },
          {
            kind: 'diagnosis',
            summary: 'Pharyngitis',
            name: 'Acute pharyngitis',
            term: 'strep throat',
            evidence: 'rule out strep throat',
            icd10Code: 'J02.9',
            segmentIds: ['seg-3'],
          },
          {
            kind: 'diagnosis',
            summary: 'Diabetes',
            name: 'Diabetes',
            term: 'diabetes',
            evidence: 'My mother had diabetes.',
            icd10Code: 'E11.9',
            segmentIds: ['seg-2'],
          },
          {
            kind: 'diagnosis',
            summary: 'Hypertension',
            name: 'Hypertension',
            term: 'high blood pressure',
            evidence: 'She has high blood pressure.',
            icd10Code: 'I10',
            segmentIds: ['seg-4'],
          },
        ],
      }),
    );
    const proposals = await proposalStep(bedrockWriter(), visit);
    const input = bedrock.commandCalls(ConverseCommand)[0].args[0].input;
    expect(input.system).toEqual([{ text: CHART_PROPOSALS_PROMPT.system }]);
    expect(CHART_PROPOSALS_PROMPT.system).toMatch(/never propose a finding that is denied/i);
    expect(input.toolConfig?.tools?.[0].toolSpec?.inputSchema?.json).toMatchObject({
      properties: { proposals: { items: { required: expect.arrayContaining(['term', 'evidence']) } } },
    });
    expect(proposals.map((p) => [p.kind, p.fields.code, p.evidence])).toEqual([
      ['family-history', 'E11.9', 'My mother had diabetes.'],
      ['diagnosis', 'I10', 'She has high blood pressure.'],
    ]);
    expect(proposals[0]).toMatchObject({ summary: 'Family history: Type 2 diabetes mellitus without complications (E11.9)', fields: { relation: 'MTH' } });
  });

  it('does not let a paraphrase through: a name the transcript does not hold is judged by its statement', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer('record_chart_proposals', {
        proposals: [
          {
            kind: 'diagnosis',
            summary: 'Pharyngitis',
            name: 'Pharyngitis',
            term: 'inflamed pharynx',
            evidence: 'Throat is red.',
            icd10Code: 'J02.9',
            segmentIds: ['seg-1'],
          },
        ],
      }),
    );
    expect(await proposalStep(bedrockWriter(), visit)).toEqual([]);
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
