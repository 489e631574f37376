import { describe, expect, it } from 'vitest';
import { parseChartItem } from './chart-repository.js';

const AT = '2025-03-04T05:06:07.000Z';
/** A row as the table holds it: keys, entity type, and the meta every write stamps, but no version (rows written before versions existed). */
const row = (section: string, ident: string, fields: Record<string, unknown>) => ({
  practiceId: 'prac',
  sk: `PATIENT#p1#${section}#${ident}`,
  entityType: `CHART_${section}`,
  ident,
  patientId: 'p1',
  createdAt: AT,
  updatedAt: AT,
  ...fields,
});

describe('a stored chart item reads as its section item', () => {
  it('an old allergy: no version reads 1, pinned and active stored as 1/0 read as booleans, absent texts and dates as empty', () => {
    const allergy = parseChartItem('allergies', row('ALLERGY', 'a1', { name: 'Penicillin', pinned: 1, active: 0, severity: 'severe', startDate: '' }));
    expect(allergy).toEqual({
      ident: 'a1',
      patientId: 'p1',
      createdAt: AT,
      updatedAt: AT,
      version: 1,
      name: 'Penicillin',
      pinned: true,
      active: false,
      severity: 'severe',
      description: '',
      startDate: '',
      endDate: '',
    });
    expect(allergy).not.toHaveProperty('sk');
    expect(allergy).not.toHaveProperty('entityType');
  });

  it('keeps every stored field, the ones no schema names too, and reads a null attribute as absent', () => {
    const diagnosis = parseChartItem(
      'diagnoses',
      row('DIAGNOSIS', 'd1', {
        name: 'Type 2 diabetes',
        version: 4,
        pinned: 0,
        date: '2024-02',
        icd10Code: { ident: 'E119', code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
        icd10CodeId: 'E119',
        noteDataLinks: [{ dataType: 'diagnosis', dataId: 'd1', linkId: 'l1', noteId: 'n1' }],
        laterField: 'kept',
        endDate: null,
      }),
    );
    expect(diagnosis).toMatchObject({ version: 4, pinned: false, active: true, date: '2024-02', endDate: '', description: '', laterField: 'kept' });
    expect(diagnosis.icd10Code?.code).toBe('E11.9');
    expect(diagnosis.noteDataLinks).toHaveLength(1);
  });

  it('a DoseSpot medication (daw 1/0, no pin) and an old one without status read as active', () => {
    const synced = parseChartItem(
      'medications',
      row('MEDICATION', 'm1', {
        productName: 'Amoxicillin',
        status: 'Active',
        start: '2025-03-01',
        daw: 1,
        quantity: 20,
        code: { type: 'NDC', value: '0093-4155' },
      }),
    );
    expect(synced).toMatchObject({ productName: 'Amoxicillin', daw: true, pinned: false, quantity: 20, end: '', expiration: '', code: { value: '0093-4155' } });
    const old = parseChartItem('medications', row('MEDICATION', 'm2', { productName: 'Metformin' }));
    expect(old.status).toBe('Active');
    expect(old).not.toHaveProperty('daw');
  });

  it('vaccines with their grouping, and the series they belong to', () => {
    const dose = parseChartItem(
      'vaccines',
      row('VACCINE', 'v1', { name: 'Hep B', doseNumber: 2, date: '', pinned: 1, grouping: { ident: 'g1', name: 'Hepatitis B series' } }),
    );
    expect(dose).toMatchObject({ name: 'Hep B', doseNumber: 2, date: '', expirationDate: '', pinned: true, grouping: { ident: 'g1' } });
    const series = parseChartItem('vaccineGroups', row('VACCINE_GROUP', 'g1', { name: 'Hepatitis B series' }));
    expect(series).toEqual({ ident: 'g1', patientId: 'p1', createdAt: AT, updatedAt: AT, version: 1, name: 'Hepatitis B series' });
  });

  it('the other sections: freeform medications, surgeries, family, social history and general information', () => {
    expect(parseChartItem('freeformMedications', row('FREEFORM_MEDICATION', 'f1', { name: 'Fish oil' })).name).toBe('Fish oil');
    expect(parseChartItem('surgeries', row('SURGERY', 's1', { name: 'Appendectomy' }))).toMatchObject({ description: '', date: '', pinned: false });
    expect(parseChartItem('familyHistory', row('FAMILY_HISTORY', 'h1', { diagnosis: 'Asthma' }))).toMatchObject({ family: [], details: '' });
    const social = parseChartItem('socialHistory', row('SOCIAL_HISTORY', 'q1', { question: 'Smoking', answers: [{ ident: 'x1', answer: 'Never' }] }));
    expect(social).toMatchObject({
      question: 'Smoking',
      notes: '',
      startDate: '',
      endDate: '',
      answers: [{ ident: 'x1', answer: 'Never', timestamp: '', userId: '' }],
    });
    expect(parseChartItem('socialHistory', row('SOCIAL_HISTORY', 'q2', { question: 'Alcohol' })).answers).toEqual([]);
    expect(
      parseChartItem('general', row('GENERAL', 'i1', { name: 'Diet', details: 'Vegetarian', grouping: { ident: 'gg1', name: 'Lifestyle' } })),
    ).toMatchObject({
      details: 'Vegetarian',
      grouping: { name: 'Lifestyle' },
    });
    expect(parseChartItem('generalGroups', row('GENERAL_GROUP', 'gg1', { name: 'Lifestyle', version: 2 })).version).toBe(2);
  });

  it('refuses an item that does not fit, naming its key and the fields, never their values', () => {
    const bad = row('ALLERGY', 'a9', { name: 42, severity: 'Deadly', pinned: 'yes' });
    const message = (() => {
      try {
        parseChartItem('allergies', bad);
        return 'read';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toBe('Stored chart allergies item PATIENT#p1#ALLERGY#a9 does not fit its schema: pinned, name, severity');
    expect(message).not.toMatch(/Deadly|42|yes/);
    expect(() => parseChartItem('medications', row('MEDICATION', 'm9', { productName: 'X', createdAt: undefined }))).toThrow(
      'Stored chart medications item PATIENT#p1#MEDICATION#m9 does not fit its schema: createdAt',
    );
  });
});
