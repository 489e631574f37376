import { describe, expect, it } from 'vitest';
import { labResultsNotificationText, labReviewFlags, labReviewSeverity, waitedText } from './lab-review-format.js';

const item = (text: string, value: number, interpretation: string, ranges = [{ low: 3.5, high: 5.1 }]) => ({
  id: text,
  code: text,
  text,
  valueQuantity: { value, unit: 'mmol/L' },
  interpretation,
  ranges,
});

describe('results to review', () => {
  it("flags the lab's critical codes first and ranks the result by its worst value", () => {
    const flags = labReviewFlags([item('Sodium', 150, 'H'), item('Potassium', 7.2, 'HH'), item('Chloride', 102, 'N')]);
    expect(flags.map((f) => [f.text, f.critical, f.flag])).toEqual([
      ['Potassium', true, 'high'],
      ['Sodium', false, 'high'],
    ]);
    expect(labReviewSeverity(flags)).toBe('critical');
    expect(labReviewSeverity(labReviewFlags([item('Sodium', 150, 'H')]))).toBe('abnormal');
    // No interpretation sent: the reference range decides.
    expect(labReviewSeverity(labReviewFlags([item('Potassium', 4.2, '')]))).toBe('normal');
    expect(labReviewSeverity(labReviewFlags([item('Potassium', 5.9, '')]))).toBe('abnormal');
    expect(labReviewFlags([item('Glucose', 30, 'LL')])[0]).toMatchObject({ critical: true, flag: 'low', value: '30 mmol/L' });
  });

  it('names the patient, the tests and what needs a look in the notification', () => {
    const flags = labReviewFlags([item('Potassium', 7.2, 'HH'), item('Sodium', 150, 'H'), item('Calcium', 7, 'L')]);
    expect(labResultsNotificationText('Ana Lopez', ['Comprehensive metabolic panel (CMP)'], flags)).toBe(
      'Lab results for Ana Lopez: Comprehensive metabolic panel (CMP) (1 critical, 2 out of range)',
    );
    expect(labResultsNotificationText('Ana Lopez', ['TSH'], [])).toBe('Lab results for Ana Lopez: TSH');
  });

  it('says how long a result has waited', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(waitedText('2026-12-01T11:55:00Z', now)).toBe('5 min');
    expect(waitedText('2026-12-01T09:50:00Z', now)).toBe('2 h 10 min');
    expect(waitedText('2026-11-28T08:00:00Z', now)).toBe('3 d 4 h');
  });
});
