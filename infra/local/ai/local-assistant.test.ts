import { describe, expect, it } from 'vitest';
import { localAssistantReply } from './local-assistant.js';

const system = ['You are Copilot.', 'Patient: Rosa Quintero, 56 years old, female.', 'Allergies: Sulfa drugs, severity severe.', 'Diagnoses: none recorded.', 'Medications: Lisinopril, 10 mg.', 'Other medications: none recorded.'].join('\n');

describe('the local rule-based assistant', () => {
  it('answers from the chart summary it was given, by the topic asked, and says what it is', () => {
    const reply = localAssistantReply({ messages: [{ role: 'system', content: system }, { role: 'user', content: 'Any allergies?' }] });
    expect(reply).toMatch(/^Local rule-based assistant \(no language model\)/);
    expect(reply).toContain('Allergies: Sulfa drugs, severity severe.');
    expect(reply).not.toContain('Lisinopril');
    expect(reply).toContain('You asked: "Any allergies?"');
    const meds = localAssistantReply({ messages: [{ role: 'system', content: system }, { role: 'user', content: 'What medications is she taking?' }] });
    expect(meds).toContain('Medications: Lisinopril, 10 mg.');
  });

  it('without a patient it repeats the question and says how to configure a model', () => {
    const reply = localAssistantReply({ messages: [{ role: 'system', content: 'You are Copilot.' }, { role: 'user', content: 'Draft a reminder' }] });
    expect(reply).toContain('no patient is in context');
    expect(reply).toContain('"Draft a reminder"');
  });
});
