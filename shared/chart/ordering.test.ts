import { describe, expect, it } from 'vitest';
import { appendAnswerIfChanged, filterByActive, filterMedications, groupVaccines, orderChartItems } from './ordering.js';
import type { Vaccine } from './sections.js';

const vax = (ident: string, name: string, date: string, doseNumber?: number, extra: Partial<Vaccine> = {}): Vaccine =>
  ({ ident, patientId: 'p', name, date, doseNumber, pinned: false, createdAt: `2026-01-01T00:00:0${ident.length}Z`, updatedAt: '', ...extra }) as Vaccine;

describe('ordering', () => {
  it('puts pinned first, then newest date, undated last', () => {
    const items = [
      { id: 'a', pinned: false, d: '2020-01-01' },
      { id: 'b', pinned: true, d: '2010-01-01' },
      { id: 'c', pinned: false, d: '' },
      { id: 'd', pinned: false, d: '2024-01-01' },
    ];
    expect(orderChartItems(items, (i) => i.d).map((i) => i.id)).toEqual(['b', 'd', 'a', 'c']);
  });
  it('filters Active/Resolved and Active/Discontinued', () => {
    expect(filterByActive([{ active: true }, { active: false }, {}], 'Resolved')).toEqual([{ active: false }]);
    expect(filterMedications([{ status: 'Active' }, { status: 'Complete' }], 'Discontinued')).toEqual([{ status: 'Complete' }]);
  });
  it('groups vaccines by stored group or name, then sorts by date then dose number', () => {
    const groups = groupVaccines([
      vax('1', 'Hep B', '2021-03-01', 2),
      vax('2', 'hep b', '2021-01-01', 1),
      vax('3', 'Tdap', '2020-01-01', 1),
      vax('4', 'Hep B', '2021-03-01', 1),
      vax('5', 'Flu', '2022-10-01', undefined, { grouping: { ident: 'g1', name: 'Influenza' }, pinned: true }),
    ]);
    expect(groups.map((g) => g.name)).toEqual(['Influenza', 'Hep B', 'Tdap']);
    expect(groups[1].items.map((v) => v.ident)).toEqual(['2', '4', '1']);
  });
  it('appends a social-history answer only when it changed, newest first', () => {
    const first = [{ ident: 'a', answer: 'Never', timestamp: '2025-01-01T00:00:00Z', userId: 'u' }];
    expect(appendAnswerIfChanged(first, { ident: 'b', answer: ' Never ', timestamp: '2026-01-01T00:00:00Z', userId: 'u' })).toEqual(first);
    expect(appendAnswerIfChanged(first, { ident: 'b', answer: 'Daily', timestamp: '2026-01-01T00:00:00Z', userId: 'u' }).map((a) => a.ident)).toEqual([
      'b',
      'a',
    ]);
  });
});
