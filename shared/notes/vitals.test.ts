import { describe, expect, it } from 'vitest';
import { bmi, normalizeVitals, showsHeadCircumference, vitalsLines } from './vitals.js';

const on = new Date('2026-06-01T12:00:00Z');

describe('vitals', () => {
  it('computes BMI as weight × 703 / height², two decimals', () => {
    expect(bmi(180, 70)).toBe(25.82);
    expect(bmi(150, 65)).toBe(24.96);
    expect(bmi(180, null)).toBeNull();
    expect(bmi(180, 0)).toBeNull();
  });
  it('normalises typed values and fills BMI with fixed units', () => {
    const v = normalizeVitals({ weight: '180', height: 70, systolic: '120', diastolic: '' });
    expect(v).toMatchObject({ weight: 180, height: 70, systolic: 120, bmi: 25.82, tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb' });
    expect(v.diastolic).toBeUndefined();
  });
  it('shows head circumference up to age 20 or without a dob', () => {
    expect(showsHeadCircumference('2006-06-01', on)).toBe(true);
    expect(showsHeadCircumference('2005-05-31', on)).toBe(false);
    expect(showsHeadCircumference(undefined, on)).toBe(true);
  });
  it('prints vitals with their units', () => {
    expect(vitalsLines({ systolic: 120, diastolic: 80, temp: 98.6, spo2: 99 })).toEqual(['Blood pressure: 120/80 mmHg', 'SpO2: 99%', 'Temperature: 98.6 °F']);
  });
});
