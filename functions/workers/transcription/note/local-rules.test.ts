import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { DRUG_STARTER } from '../../../lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../../lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { localChartProposals, localSoapNote, localAfterVisitSummary } from './local-rules.js';

const seg = (n: number, text: string): TranscriptSegment => ({ id: `seg-${n}`, speaker: 'Speaker 1', start: n, end: n + 1, text });

const STARTERS = { drugs: async () => new DrugIndex(DRUG_STARTER), icd10: async () => new Icd10Index(ICD10_STARTER) };

const transcript = [
  seg(1, 'the patient reports a headache for three days'),
  seg(2, 'blood pressure is one hundred thirty over eighty and heart rate seventy two'),
  seg(3, 'this is likely a tension headache'),
  seg(4, 'she is allergic to penicillin'),
  seg(5, 'stop lisinopril and start ibuprofen four hundred milligrams'),
  seg(6, 'follow up in two weeks'),
];

describe('local rule-based note writer', () => {
  it('places each sentence under its SOAP heading with its segment as evidence', () => {
    const note = localSoapNote(transcript);
    expect(note.map((s) => s.heading)).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    expect(note[0].sentences).toEqual([
      { text: 'The patient reports a headache for 3 days.', segmentIds: ['seg-1'] },
      { text: 'She is allergic to penicillin.', segmentIds: ['seg-4'] },
    ]);
    expect(note[1].sentences).toEqual([{ text: 'Blood pressure is 130 over 80 and heart rate 72.', segmentIds: ['seg-2'] }]);
    expect(note[2].sentences[0].segmentIds).toEqual(['seg-3']);
    expect(note[3].sentences.map((s) => s.segmentIds)).toEqual([['seg-5'], ['seg-6']]);
    expect(localAfterVisitSummary(note).map((s) => s.text)).toEqual(['Stop lisinopril and start ibuprofen 400 milligrams.', 'Follow up in 2 weeks.']);
  });

  it('marks an empty section as unevidenced and writes a summary without a plan', () => {
    const note = localSoapNote([seg(1, 'the patient feels well')]);
    expect(note[3].sentences).toEqual([{ text: 'Nothing was said for this section.', segmentIds: [] }]);
    expect(localAfterVisitSummary(note)).toEqual([{ text: 'No changes to your care were stated at this visit.', segmentIds: [] }]);
  });

  it('proposes medications started and stopped, allergies, coded diagnoses and spoken vitals, each with evidence', async () => {
    const proposals = await localChartProposals(transcript, STARTERS);
    const byKind = (k: string) => proposals.filter((p) => p.kind === k);
    expect(byKind('medication-start')).toEqual([
      expect.objectContaining({
        summary: 'Start Ibuprofen 400 mg',
        fields: expect.objectContaining({ productName: 'Ibuprofen', strength: '400', strengthUOM: 'mg' }),
        segmentIds: ['seg-5'],
      }),
    ]);
    expect(byKind('medication-stop')).toEqual([
      {
        kind: 'medication-stop',
        summary: 'Stop Lisinopril',
        fields: { productName: 'Lisinopril', genericName: 'Lisinopril' },
        segmentIds: ['seg-5'],
        evidence: 'stop lisinopril and start ibuprofen 400 milligrams',
      },
    ]);
    expect(byKind('allergy')).toEqual([expect.objectContaining({ fields: { name: 'Penicillin' }, segmentIds: ['seg-4'] })]);
    expect(byKind('vitals')).toEqual([expect.objectContaining({ fields: { systolic: 130, diastolic: 80, heartRate: 72 }, segmentIds: ['seg-2'] })]);
    const diagnoses = byKind('diagnosis');
    expect(diagnoses.length).toBeGreaterThan(0);
    for (const d of diagnoses) expect(d.segmentIds.length).toBeGreaterThan(0);
    expect(diagnoses).toEqual([
      expect.objectContaining({
        fields: expect.objectContaining({ name: 'Headache, unspecified', code: 'R51.9', icd10CodeId: 'R519' }),
        segmentIds: ['seg-1', 'seg-3'],
        evidence: 'the patient reports a headache for 3 days',
      }),
    ]);
  });
});
