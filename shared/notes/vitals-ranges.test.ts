import { describe, expect, it } from 'vitest';
import { noteSaveProblem } from './note-rules.js';
import { normalizeVitals, VITALS_FIELDS } from './vitals.js';
import { impossibleVitals, keptConfirmations, unconfirmedVitals, unusualVitals, VITALS_RANGES } from './vitals-ranges.js';

describe('vitals ranges', () => {
  it('refuses 991 °F with the possible range and asks about 106.5 °F with the usual one', () => {
    expect(impossibleVitals({ temp: 991 })).toEqual([
      { key: 'temp', value: 991, message: 'Temperature 991 °F is not possible. Enter a value from 56 to 116 °F.' },
    ]);
    expect(impossibleVitals({ temp: 106.5 })).toEqual([]);
    expect(unusualVitals({ temp: '106.5' })).toEqual([{ key: 'temp', value: 106.5, message: 'Temperature 106.5 °F is outside the usual range 95–104 °F.' }]);
    expect(unusualVitals({ temp: 991 })).toEqual([]);
  });

  it('leaves everyday values of adults and newborns alone', () => {
    const adult = { systolic: 128, diastolic: 82, heartRate: 72, spo2: 98, temp: 98.6, respiratoryRate: 16, height: 70, weight: 180 };
    const newborn = { heartRate: 160, respiratoryRate: 50, height: 20, weight: 7.5, headCircumference: 13.5, temp: 99.1 };
    for (const v of [adult, newborn]) {
      expect(impossibleVitals(v)).toEqual([]);
      expect(unusualVitals(v)).toEqual([]);
    }
  });

  it('names each field in its own unit at both edges', () => {
    expect(impossibleVitals({ spo2: 101, heartRate: 5, systolic: 400, weight: 0.2 }).map((f) => f.message)).toEqual([
      'Heart rate 5 bpm is not possible. Enter a value from 10 to 480 bpm.',
      'Systolic 400 mmHg is not possible. Enter a value from 20 to 370 mmHg.',
      'SpO2 101% is not possible. Enter a value from 20 to 100%.',
      'Weight 0.2 lb is not possible. Enter a value from 0.5 to 1400 lb.',
    ]);
    expect(unusualVitals({ spo2: 82, respiratoryRate: 4, height: 90 }).map((f) => f.message)).toEqual([
      'SpO2 82% is outside the usual range 88–100%.',
      'Respiratory rate 4 breaths/min is outside the usual range 8–60 breaths/min.',
      'Height 90 in is outside the usual range 18–84 in.',
    ]);
    // The limits themselves are inside: only past them is a value questioned or refused.
    expect(unusualVitals({ temp: 104, spo2: 100 })).toEqual([]);
    expect(unusualVitals({ temp: 104.5 }).map((f) => f.message)).toEqual(['Temperature 104.5 °F is outside the usual range 95–104 °F.']);
    expect(impossibleVitals({ temp: 116, spo2: 100 })).toEqual([]);
  });

  it('keeps every range ordered and in the units of the vitals form', () => {
    for (const [key, r] of Object.entries(VITALS_RANGES)) {
      const field = VITALS_FIELDS.find((f) => f.key === key)!;
      expect(r.unit).toBe(field.unit);
      expect(r.possible[0]).toBeLessThan(r.usual[0]);
      expect(r.usual[0]).toBeLessThan(r.usual[1]);
      expect(r.usual[1]).toBeLessThanOrEqual(r.possible[1]);
    }
  });

  it('counts a confirmation only at the value confirmed', () => {
    expect(unconfirmedVitals({ temp: 106.5, confirmedVitals: { temp: 106.5 } })).toEqual([]);
    expect(unconfirmedVitals({ temp: 107, confirmedVitals: { temp: 106.5 } }).map((f) => f.key)).toEqual(['temp']);
    expect(keptConfirmations({ temp: 98.6, heartRate: 190 }, { temp: 106.5, heartRate: 190 })).toEqual({ heartRate: 190 });
    // The stored note keeps the confirmation that still applies, and drops one for a value since changed.
    expect(normalizeVitals({ temp: '106.5', confirmedVitals: { temp: 106.5 } }).confirmedVitals).toEqual({ temp: 106.5 });
    expect(normalizeVitals({ temp: '99', confirmedVitals: { temp: 106.5 } }).confirmedVitals).toBeUndefined();
  });

  it('is the save rule the window and the API share: an impossible value is refused with every field named', () => {
    expect(noteSaveProblem({ noteType: 'VITALS', patientId: 'p', data: { temp: '991', heartRate: '72' } })).toEqual({
      message: 'Temperature 991 °F is not possible. Enter a value from 56 to 116 °F.',
      fieldErrors: { temp: 'Temperature 991 °F is not possible. Enter a value from 56 to 116 °F.' },
    });
    // An unusual value is no refusal of the shared rule: the window asks, the API wants the confirmation.
    expect(noteSaveProblem({ noteType: 'VITALS', patientId: 'p', data: { temp: '104.5' } })).toBeNull();
  });
});
