import { describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { conditionsDefinition, nameAfterCodePick } from './conditions.js';
import { errorsOf } from './test-helpers.js';

describe('medical condition form', () => {
  it('uses the older problem-list layout without the redesign flag', () => {
    const older = conditionsDefinition(false);
    expect([older.addLabel, older.emptyText, older.filter]).toEqual(['Add Diagnosis', 'No diagnoses', undefined]);
    expect(conditionsDefinition(true).filter?.initial).toBe('Active');
  });

  it('shows the diagnosis date rules under the end date field', () => {
    const def = conditionsDefinition(true);
    const body = def.toBody({ ...def.toValues(), name: 'Asthma', date: '03/2024', endDate: '01/2023' });
    expect(errorsOf(def, body)).toEqual({ endDate: 'End Date must come after Start Date' });
    expect(errorsOf(def, { ...body, date: '13/2024', endDate: '' })).toEqual({ date: 'Date is not valid' });
  });

  it('names a deleted condition a diagnosis, its note-link data type (spec §3, §4)', () => {
    const def = conditionsDefinition(true);
    expect(CHART_MESSAGES.deletedLinked(def.linkType ?? def.noun)).toBe('This diagnosis has been deleted');
  });

  it('fills an empty Name from the picked ICD-10 code and keeps a Name already typed', () => {
    const asthma = { ident: 'J45909', code: 'J45.909', description: 'Unspecified asthma, uncomplicated' };
    expect(nameAfterCodePick('', asthma)).toBe('Unspecified asthma, uncomplicated');
    expect(nameAfterCodePick('  ', asthma)).toBe('Unspecified asthma, uncomplicated');
    expect(nameAfterCodePick('Asthma since childhood', asthma)).toBe('Asthma since childhood');
    expect(nameAfterCodePick('', null)).toBe('');
    // The filled Name satisfies the required-field rule on Save.
    const def = conditionsDefinition(true);
    expect(errorsOf(def, def.toBody({ ...def.toValues(), name: nameAfterCodePick('', asthma), icd: asthma }))).toEqual({});
  });
});
