import { describe, expect, it } from 'vitest';
import type { NoteSection } from '../../../../shared/ai/transcription-schema.js';
import { fillTemplate } from './template-fill.js';

const engines = {
  speech: { kind: 'local-pocketsphinx' as const, local: true, label: 'pocketsphinx' },
  text: { kind: 'local-rules' as const, local: true, label: 'rules' },
};
const sections: NoteSection[] = [
  { heading: 'Subjective', sentences: [{ text: 'Headache for 3 days.', segmentIds: ['seg-1'] }] },
  { heading: 'Objective', sentences: [{ text: 'Blood pressure is 130 over 80.', segmentIds: ['seg-2'] }] },
  { heading: 'Assessment', sentences: [{ text: 'Likely a tension headache.', segmentIds: ['seg-3'] }] },
  {
    heading: 'Plan',
    sentences: [
      { text: 'Start ibuprofen 400 milligrams.', segmentIds: ['seg-4'] },
      { text: 'Rest.', segmentIds: [] },
    ],
  },
];
const avs = [{ text: 'Start ibuprofen 400 milligrams.', segmentIds: ['seg-4'] }];

describe('custom template fill', () => {
  it('puts each section under the wild card its label names, and marks unevidenced sentences', () => {
    const body = '<p>History of present illness: {{wild card}}</p><p>Exam</p><p>{{ Wild_Card }}</p><p>Impression: {{wild card}}</p><p>Plan: {{wild card}}</p>';
    const { text, formattedText } = fillTemplate(body, sections, avs, engines);
    expect(text.split('\n').slice(2)).toEqual([
      'History of present illness: Headache for 3 days.',
      'Exam',
      'Blood pressure is 130 over 80.',
      'Impression: Likely a tension headache.',
      'Plan: Start ibuprofen 400 milligrams. Rest. (check: not found in the recording)',
    ]);
    expect(text.startsWith('Generated locally: rules; speech: pocketsphinx.')).toBe(true);
    expect(formattedText).not.toContain('wild');
  });

  it('gives the sections nobody named to the first unnamed wild card, leaving no wild card behind', () => {
    const { text } = fillTemplate('Plan: {{wild card}}\nNotes: {{wild card}}\nMore: {{wild card}}\nHello {{first name}}', sections, avs, engines);
    expect(text).toContain('Plan: Start ibuprofen 400 milligrams.');
    expect(text).toContain(
      'Notes: Subjective: Headache for 3 days.\nObjective: Blood pressure is 130 over 80.\nAssessment: Likely a tension headache.\nAfter-visit summary: Start ibuprofen 400 milligrams.',
    );
    expect(text).toContain('More: \n');
    expect(text).not.toMatch(/wild card/);
    expect(text).toContain('{{first name}}');
  });
});
