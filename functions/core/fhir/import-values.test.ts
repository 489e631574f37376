import { describe, expect, it } from 'vitest';
import { conceptName, sigOf, vitalValue } from './import-values.js';

const snomed = (display: string) => ({ coding: [{ system: 'http://snomed.info/sct', code: '1', display }] });

describe('a foreign bundle read as the chart records it', () => {
  it('a SNOMED CT name loses its semantic tag; other names keep their brackets', () => {
    expect(conceptName(snomed('Prediabetes (finding)'))).toBe('Prediabetes');
    expect(conceptName({ ...snomed('Colonoscopy (procedure)'), text: 'Colonoscopy (procedure)' })).toBe('Colonoscopy');
    expect(conceptName(snomed('Fracture of ankle (left) (disorder)'))).toBe('Fracture of ankle (left)');
    expect(conceptName({ coding: [{ system: 'http://loinc.org', code: '39156-5', display: 'Body mass index (BMI) [Ratio]' }] })).toBe(
      'Body mass index (BMI) [Ratio]',
    );
    expect(conceptName({ text: 'Lives alone (finding)' })).toBe('Lives alone (finding)');
  });

  it('metric vitals are converted to in, lb and °F to a tenth; recorded units pass through; others are refused', () => {
    expect(vitalValue('height', { value: 167.6, code: 'cm' })).toBe(66);
    expect(vitalValue('height', { value: 1.8, code: 'm' })).toBe(70.9);
    expect(vitalValue('weight', { value: 84.1, code: 'kg' })).toBe(185.4);
    expect(vitalValue('weight', { value: 3500, code: 'g' })).toBe(7.7);
    expect(vitalValue('temp', { value: 37, code: 'Cel' })).toBe(98.6);
    expect(vitalValue('headCircumference', { value: 35, code: 'cm' })).toBe(13.8);
    expect(vitalValue('weight', { value: 160.25, code: '[lb_av]' })).toBe(160.25);
    expect(vitalValue('height', { value: 66, unit: 'in' })).toBe(66);
    expect(vitalValue('heartRate', { value: 76, code: '/min' })).toBe(76);
    expect(vitalValue('temp', { value: 310, code: 'K' })).toBeUndefined();
    expect(vitalValue('weight', { code: 'kg' })).toBeUndefined();
  });

  it('a structured dosage reads as a sig; written text wins', () => {
    const dosage = (frequency: number, period: number, periodUnit: string, extra: Record<string, unknown> = {}) => ({
      timing: { repeat: { frequency, period, periodUnit } },
      doseAndRate: [{ doseQuantity: { value: 1 } }],
      ...extra,
    });
    expect(sigOf(dosage(1, 1, 'd'))).toBe('1 dose once a day');
    expect(sigOf(dosage(2, 1, 'd'))).toBe('1 dose twice a day');
    expect(sigOf(dosage(3, 1, 'd'))).toBe('1 dose 3 times a day');
    expect(sigOf(dosage(1, 8, 'h', { asNeededBoolean: true }))).toBe('1 dose every 8 hours as needed');
    expect(sigOf({ doseAndRate: [{ doseQuantity: { value: 2, unit: 'puffs' } }], timing: { repeat: { frequency: 2, period: 1, periodUnit: 'wk' } } })).toBe(
      '2 puffs twice a week',
    );
    expect(sigOf({ ...dosage(1, 1, 'd'), text: 'Take with food' })).toBe('Take with food');
    expect(sigOf({ route: { text: 'oral' } })).toBeUndefined();
    expect(sigOf(undefined)).toBeUndefined();
  });
});
