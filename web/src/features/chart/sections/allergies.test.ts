import { describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { touchedErrors } from '../components/item-form.js';
import { allergiesDefinition } from './allergies.js';
import { conditionsDefinition } from './conditions.js';
import { errorsOf } from './test-helpers.js';

describe('allergy form', () => {
  it('starts a new allergy empty, active, unpinned and without severity (spec §3)', () => {
    const def = allergiesDefinition(true);
    const values = def.toValues();
    expect(values).toMatchObject({ name: '', description: '', active: true, pinned: false, severity: '' });
    expect(def.toBody(values)).toMatchObject({ pinned: 0, active: true, severity: undefined });
    expect(errorsOf(def, def.toBody(values))).toEqual({ name: 'Name is required' });
  });

  it('validates on touch: only the fields the user has left show messages (spec §5)', () => {
    const def = allergiesDefinition(true);
    expect(def.validateOnTouch).toBe(true);
    expect(def.saveOnDismiss).toBe(true);
    const body = def.toBody({ ...def.toValues(), startDate: '13/45/2020' });
    expect(touchedErrors(def.schema, body, new Set())).toEqual({});
    expect(touchedErrors(def.schema, body, new Set(['name']))).toEqual({ name: 'Name is required' });
    expect(touchedErrors(def.schema, body, new Set(['name', 'startDate']))).toEqual({ name: 'Name is required', startDate: 'Start Date is not valid' });
    expect(touchedErrors(def.schema, { ...body, name: 'Latex', startDate: '' }, new Set(['name', 'startDate']))).toEqual({});
    // The other forms keep checking on Save.
    expect(conditionsDefinition(true).validateOnTouch).toBeUndefined();
  });

  it('uses the older problem-list layout without the redesign flag', () => {
    const older = allergiesDefinition(false);
    expect([older.addLabel, older.emptyText, older.filter]).toEqual(['Add Allergy', 'No allergies', undefined]);
    const allergies = allergiesDefinition(true);
    expect(allergies.filter?.initial).toBe('Active');
    expect(['Active', 'Resolved'].map((v) => allergies.filter?.emptyText(v))).toEqual(['No Active allergies', 'No Resolved allergies']);
  });

  it('sends the ICD-10 code object only with both code and ident, description empty', () => {
    const def = allergiesDefinition(true);
    const body = def.toBody({ ...def.toValues(), name: 'Latex', icd: { ident: 'Z9104', code: 'Z91.040', description: 'Latex allergy status' } });
    expect(body).toMatchObject({ icd10CodeId: 'Z9104', icd10Code: { ident: 'Z9104', code: 'Z91.040', description: '' } });
  });

  it('names a deleted allergy by its note-link data type (spec §3, §4)', () => {
    const def = allergiesDefinition(true);
    expect(CHART_MESSAGES.deletedLinked(def.linkType ?? def.noun)).toBe('This allergy has been deleted');
  });
});
