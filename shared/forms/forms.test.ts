import { describe, expect, it } from 'vitest';
import { defaultMappingSection } from './forms.js';

const open = (title: string) => defaultMappingSection({ title, type: 'OpenQuestion' });

describe('defaultMappingSection', () => {
  it("maps the intake's usual questions to the chart section their wording names", () => {
    expect(open('Which medications do you take now? (one per line)')).toBe('MEDICATIONS');
    expect(open('Are you allergic to any medications, foods or other substances? (one per line)')).toBe('ALLERGIES');
    expect(open('Which medical conditions have you been diagnosed with? (one per line)')).toBe('MEDICAL_CONDITIONS');
    expect(open('Which surgeries have you had? (one per line)')).toBe('SURGERIES');
    expect(open('Which conditions run in your family (parents, brothers, sisters)? (one per line)')).toBe('FAMILY_HISTORY');
    expect(defaultMappingSection({ title: 'Do you smoke or use tobacco?', type: 'MultipleChoice' })).toBe('SOCIAL_HISTORY');
    expect(open('How many alcoholic drinks do you have in a week?')).toBe('SOCIAL_HISTORY');
    expect(open('What is your occupation?')).toBe('SOCIAL_HISTORY');
    expect(open('Do you use recreational drugs?')).toBe('SOCIAL_HISTORY');
  });

  it('leaves a question without a clear section unmapped', () => {
    expect(open('What brings you in today?')).toBeNull();
    expect(open('What has changed in your health since your last visit?')).toBeNull();
    expect(open('Any symptoms?')).toBeNull();
  });

  it('defaults a list section only for a free-text answer, which becomes one item per line', () => {
    expect(defaultMappingSection({ title: 'Do you have any allergies?', type: 'MultipleChoice' })).toBeNull();
    expect(defaultMappingSection({ title: 'Do you take any medications?', type: 'MultipleChoice' })).toBeNull();
    expect(defaultMappingSection({ title: 'Any new allergies?', type: '' })).toBe('ALLERGIES');
  });
});
