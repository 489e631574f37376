import { describe, expect, it } from 'vitest';
import { formatLabNumber, labAbnormality, labRangeText, numericLabValue } from './lab-schema.js';

describe('lab trend number formatting (spec shell §9)', () => {
  it('shows 1000 or more without decimals, 10 or more with one, 1 or more with two, below 1 with three', () => {
    expect(formatLabNumber(1000)).toBe('1000');
    expect(formatLabNumber(1234.56)).toBe('1235');
    expect(formatLabNumber(999.94)).toBe('999.9');
    expect(formatLabNumber(10)).toBe('10.0');
    expect(formatLabNumber(9.999)).toBe('10.00');
    expect(formatLabNumber(1)).toBe('1.00');
    expect(formatLabNumber(4.2)).toBe('4.20');
    expect(formatLabNumber(0.92)).toBe('0.920');
    expect(formatLabNumber(0)).toBe('0.000');
    expect(formatLabNumber(-12.34)).toBe('-12.3');
  });

  it('trends numeric values only', () => {
    expect(numericLabValue({ valueQuantity: { value: 5.1, unit: 'mmol/L' } })).toBe(5.1);
    expect(numericLabValue({ valueString: 'Negative' })).toBeNull();
    expect(numericLabValue({ valueQuantity: { value: Number.NaN } })).toBeNull();
  });
});

describe('abnormal values', () => {
  it("follows the lab's interpretation, and the reference range when there is none", () => {
    expect(labAbnormality({ interpretation: 'H' })).toBe('high');
    expect(labAbnormality({ interpretation: 'LL' })).toBe('low');
    expect(labAbnormality({ interpretation: 'A' })).toBe('abnormal');
    expect(labAbnormality({ interpretation: 'N', valueQuantity: { value: 200 }, ranges: [{ high: 99 }] })).toBeNull();
    expect(labAbnormality({ valueQuantity: { value: 128 }, ranges: [{ low: 70, high: 99 }] })).toBe('high');
    expect(labAbnormality({ valueQuantity: { value: 3.1 }, ranges: [{ low: 3.5, high: 5.1 }] })).toBe('low');
    expect(labAbnormality({ valueQuantity: { value: 88 }, ranges: [{ low: 70, high: 99 }] })).toBeNull();
    expect(labRangeText({ ranges: [{ low: 70, high: 99 }] })).toBe('70–99');
    expect(labRangeText({ ranges: [{ high: 199 }] })).toBe('≤ 199');
  });
});

describe('the lab table', () => {
  it('leaves out deleted and sent lab notes and lists the rest newest first', async () => {
    const { labTableNotes } = await import('./lab-format.js');
    const n = (noteId: string, status: string, eventTimestamp: string, noteType = 'LAB') => ({ noteId, status, eventTimestamp, noteType });
    const listed = labTableNotes([
      n('a', 'DELIVERED', '2026-01-01'),
      n('b', 'SENT', '2026-02-01'),
      n('c', 'DELETED', '2026-03-01'),
      n('d', 'SIGNED', '2026-04-01'),
      n('e', 'SIGNED', '2026-05-01', 'NOTE'),
    ]);
    expect(listed.map((x) => x.noteId)).toEqual(['d', 'a']);
  });
});

describe('lab payment', () => {
  it('tells on FAILED that the billing system may not have charged the patient, and says nothing otherwise', async () => {
    const { labPaymentNotice, PAYMENT_STATUSES } = await import('./lab-schema.js');
    expect(labPaymentNotice('FAILED')).toBe('The billing system may not have charged the patient. Check the upcoming invoice.');
    for (const status of PAYMENT_STATUSES.filter((s) => s !== 'FAILED')) expect(labPaymentNotice(status)).toBeNull();
  });
});
