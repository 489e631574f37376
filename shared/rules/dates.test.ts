import { describe, expect, it } from 'vitest';
import { ageOn, isIsoDate, isoToUsDate, todayIsoDate, usDateToIso } from './dates.js';

describe('dates', () => {
  it('accepts only real YYYY-MM-DD dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2023-13-01')).toBe(false);
    expect(isIsoDate('02/01/2023')).toBe(false);
  });
  it('converts between ISO and MM/DD/YYYY without zone shifts', () => {
    expect(isoToUsDate('1982-03-07')).toBe('03/07/1982');
    expect(usDateToIso('3/7/1982')).toBe('1982-03-07');
    expect(usDateToIso('02/30/1982')).toBeNull();
  });
  it('computes completed years', () => {
    const on = new Date(2026, 5, 15);
    expect(ageOn('1984-06-15', on)).toBe(42);
    expect(ageOn('1984-06-16', on)).toBe(41);
    expect(ageOn('2027-01-01', on)).toBeNull();
  });
  it("gives today's local date", () => {
    expect(todayIsoDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
