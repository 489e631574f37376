import { describe, expect, it } from 'vitest';
import { localAssistantReply } from './local-assistant.js';

const system = [
  'You are Copilot.',
  'Patient: Rosa Quintero, 56 years old, female.',
  'Allergies: Sulfa drugs, severity severe.',
  'Diagnoses: none recorded.',
  'Medications: Lisinopril, 10 mg.',
  'Other medications: none recorded.',
].join('\n');

describe('the local rule-based assistant', () => {
  it('answers from the chart summary it was given, by the topic asked, and says what it is', () => {
    const reply = localAssistantReply({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'Any allergies?' },
      ],
    });
    expect(reply).toMatch(/^Local rule-based assistant \(no language model\)/);
    expect(reply).toContain('Allergies: Sulfa drugs, severity severe.');
    expect(reply).not.toContain('Lisinopril');
    expect(reply).toContain('You asked: "Any allergies?"');
    const meds = localAssistantReply({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'What medications is she taking?' },
      ],
    });
    expect(meds).toContain('Medications: Lisinopril, 10 mg.');
  });

  it('answers about the last visit and recent results when the summary holds them, and all five by default', () => {
    const withHistory = `${system}\nLast visit: 2026-11-20, note by Dr. Ada Park: Sore throat, rapid strep negative.\nRecent results: Glucose 131 mg/dL (high) range 70–99 on 2026-11-18.`;
    const results = localAssistantReply({
      messages: [
        { role: 'system', content: withHistory },
        { role: 'user', content: 'Any abnormal labs?' },
      ],
    });
    expect(results).toContain('Recent results: Glucose 131 mg/dL (high) range 70–99 on 2026-11-18.');
    expect(results).not.toContain('Sulfa');
    const visit = localAssistantReply({
      messages: [
        { role: 'system', content: withHistory },
        { role: 'user', content: 'When was she last seen?' },
      ],
    });
    expect(visit).toContain('Last visit: 2026-11-20, note by Dr. Ada Park: Sore throat, rapid strep negative.');
    const summary = localAssistantReply({
      messages: [
        { role: 'system', content: withHistory },
        { role: 'user', content: 'Summarize' },
      ],
    });
    for (const heading of ['Diagnoses:', 'Medications:', 'Allergies:', 'Last visit:', 'Recent results:']) expect(summary).toContain(heading);
  });

  it('without a patient it repeats the question and says how to configure a model', () => {
    const reply = localAssistantReply({
      messages: [
        { role: 'system', content: 'You are Copilot.' },
        { role: 'user', content: 'Draft a reminder' },
      ],
    });
    expect(reply).toContain('no patient is in context');
    expect(reply).toContain('"Draft a reminder"');
  });
});
