import { describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { conditionsDefinition } from './conditions.js';
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
});
