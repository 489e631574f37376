import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../shared/ai/transcription-schema.js';
import { DRUG_STARTER } from '../../../lib/code-sets/drug-starter.js';
import { Icd10Index } from '../../../lib/code-sets/icd10-index.js';
import { ICD10_STARTER } from '../../../lib/code-sets/icd10-starter.js';
import { DrugIndex } from '../../../lib/code-sets/ndc.js';
import { proposalStep } from './asserted-proposals.js';
import { assertionOfTerm, pertinentNegative, statementsOf } from './assertion.js';
import { LocalRulesNoteWriter } from './local-rules.js';

const of = (text: string, term: string) => assertionOfTerm(text, term).assertion;

describe('assertion of a finding in a statement (NegEx/ConText triggers with scope)', () => {
  it('hears a denial, and its reach ends at a termination term, a new statement or an unpunctuated new subject', () => {
    expect(of('No fever.', 'fever')).toBe('negated');
    expect(of('The patient denies chest pain or shortness of breath.', 'shortness of breath')).toBe('negated');
    expect(of('Negative for nausea.', 'nausea')).toBe('negated');
    expect(of('No fever but she has a cough.', 'cough')).toBe('affirmed');
    expect(of('No fever. Headache for three days.', 'headache')).toBe('affirmed');
    // As pocketsphinx writes it: no punctuation.
    expect(of('no fever throat is red', 'red')).toBe('affirmed');
    expect(of('no fever the patient reports a headache for three days', 'headache')).toBe('affirmed');
    expect(of('strep is unlikely', 'strep')).toBe('negated');
    expect(of('pneumonia was ruled out', 'pneumonia')).toBe('negated');
  });

  it('does not take a pseudo-trigger for a denial', () => {
    expect(of('No change in her headache.', 'headache')).toBe('affirmed');
    expect(of('Not only a cough but also a fever.', 'fever')).toBe('affirmed');
  });

  it('hears doubt, a relative and the past, and says which trigger decided', () => {
    expect(of('Rule out strep throat.', 'strep throat')).toBe('possible');
    expect(of('This could be acute sinusitis.', 'acute sinusitis')).toBe('possible');
    expect(of('Return if the fever comes back.', 'fever')).toBe('possible');
    expect(assertionOfTerm('Her mother had diabetes.', 'diabetes')).toMatchObject({ assertion: 'family', trigger: 'mother' });
    expect(of('Diabetes runs in the family.', 'diabetes')).toBe('family');
    expect(of('She had pneumonia as a child.', 'pneumonia')).toBe('historical');
    expect(of('Asthma was diagnosed years ago.', 'asthma')).toBe('historical');
    expect(of('History of asthma.', 'asthma')).toBe('historical');
    expect(of('Her mother had diabetes and she has hypertension.', 'hypertension')).toBe('affirmed');
  });

  it('judges a name the text does not hold by its statements, so a paraphrase of a denial is not affirmed', () => {
    expect(of('No fever.', 'pyrexia')).toBe('negated');
    expect(of('Throat is red.', 'pharyngitis')).toBe('affirmed');
  });

  it('splits statements at full stops but not at a decimal point, and writes a bare "no" as a pertinent negative', () => {
    expect(statementsOf('Temperature is 98.6. No fever.').map((s) => s.text)).toEqual(['Temperature is 98.6.', 'No fever.']);
    expect(pertinentNegative('No fever')).toBe('Denies fever');
    expect(pertinentNegative('No known drug allergies')).toBe('No known drug allergies');
  });
});

describe('the visit of the issue: "No fever. Throat is red."', () => {
  const writer = new LocalRulesNoteWriter({ drugs: async () => new DrugIndex(DRUG_STARTER), icd10: async () => new Icd10Index(ICD10_STARTER) });
  const transcript: TranscriptSegment[] = [
    { id: 'seg-1', speaker: 'Speaker 1', start: 0, end: 2, text: 'No fever. Throat is red.' },
    { id: 'seg-2', speaker: 'Speaker 1', start: 2, end: 4, text: 'Could be strep, we will do a rapid strep test.' },
    { id: 'seg-3', speaker: 'Speaker 1', start: 4, end: 6, text: 'Rest and fluids, follow up in two weeks.' },
  ];

  it('proposes no fever, keeps the denial as a pertinent negative and puts the exam, the impression and the plan where they belong', async () => {
    expect(await proposalStep(writer, transcript)).toEqual([]);
    const note = await writer.soapNote(transcript);
    expect(note).toEqual([
      { heading: 'Subjective', sentences: [{ text: 'Denies fever.', segmentIds: ['seg-1'] }] },
      { heading: 'Objective', sentences: [{ text: 'Throat is red.', segmentIds: ['seg-1'] }] },
      { heading: 'Assessment', sentences: [{ text: 'Nothing was said for this section.', segmentIds: [] }] },
      {
        heading: 'Plan',
        sentences: [
          { text: 'Could be strep, we will do a rapid strep test.', segmentIds: ['seg-2'] },
          { text: 'Rest and fluids, follow up in 2 weeks.', segmentIds: ['seg-3'] },
        ],
      },
    ]);
  });
});
