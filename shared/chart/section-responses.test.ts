import { describe, expect, it } from 'vitest';
import { ChartSectionItem, ChartSectionList, GeneralListAnswer, VaccineListAnswer } from './section-responses.js';
import { AllergyInput, VaccineInput } from './sections.js';

const meta = { ident: 'i1', patientId: 'p1', createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-02T03:04:05.000Z', version: 1 };

describe('chart section answers', () => {
  it('keeps every stored field of an item for the edit form', () => {
    const stored = { ...AllergyInput.parse({ name: 'Penicillin', severity: 'severe', startDate: '01/02/2020' }), ...meta };
    const read = ChartSectionList.allergies.parse({ items: [stored] });
    expect(read.items[0]).toEqual(stored);
  });

  it('reads a vaccine dose pinned as 1 as pinned, and a dose without dates as undated', () => {
    const { date: _date, expirationDate: _expiry, ...dose } = { ...VaccineInput.parse({ name: 'Tdap', lotNumber: 'L1' }), ...meta, pinned: 1 };
    const read = VaccineListAnswer.parse({ items: [dose], groups: [] });
    expect(read.items[0]).toMatchObject({ name: 'Tdap', lotNumber: 'L1', pinned: true, date: '', expirationDate: '' });
  });

  it('refuses a list whose item has no id or no name', () => {
    expect(ChartSectionList.diagnoses.safeParse({ items: [{ ...meta, ident: undefined, name: 'Asthma' }] }).success).toBe(false);
    expect(ChartSectionItem.medications.safeParse({ ...meta, name: 'Aspirin' }).success).toBe(false);
  });

  it('reads the general list with its groups and their items', () => {
    const item = { ...meta, name: 'Diet', details: '', pinned: false, grouping: { ident: 'g1', name: 'Lifestyle' } };
    const read = GeneralListAnswer.parse({ items: [item], groups: [{ ...meta, ident: 'g1', name: 'Lifestyle', items: [item] }] });
    expect(read.groups[0]?.items[0]?.details).toBe('');
  });
});
