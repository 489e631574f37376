import { describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../../../../shared/chart/constants.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import { touchedErrors } from './item-form.js';
import { allergiesDefinition, conditionsDefinition, medicationsDefinition, socialHistoryDefinition } from './sections.js';

function errorsOf(def: { schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } } }, body: Record<string, unknown>) {
  const result = def.schema.safeParse(body);
  return result.success ? {} : zodFieldErrors(result.error as never);
}

describe('chart section forms', () => {
  it('starts a new allergy empty, active, unpinned and without severity (spec §3)', () => {
    const def = allergiesDefinition(true);
    const values = def.toValues();
    expect(values).toMatchObject({ name: '', description: '', active: true, pinned: false, severity: '' });
    expect(def.toBody(values)).toMatchObject({ pinned: 0, active: true, severity: undefined });
    expect(errorsOf(def, def.toBody(values))).toEqual({ name: 'Name is required' });
  });

  it('validates the allergy form on touch: only the fields the user has left show messages (spec §5)', () => {
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
    const older = [allergiesDefinition(false), conditionsDefinition(false)];
    expect(older.map((d) => [d.addLabel, d.emptyText, d.filter])).toEqual([
      ['Add Allergy', 'No allergies', undefined],
      ['Add Diagnosis', 'No diagnoses', undefined],
    ]);
    const allergies = allergiesDefinition(true);
    expect(allergies.filter?.initial).toBe('Active');
    expect(['Active', 'Resolved'].map((v) => allergies.filter?.emptyText(v))).toEqual(['No Active allergies', 'No Resolved allergies']);
    expect(conditionsDefinition(true).filter?.initial).toBe('Active');
  });

  it('sends the ICD-10 code object only with both code and ident, description empty', () => {
    const def = allergiesDefinition(true);
    const body = def.toBody({ ...def.toValues(), name: 'Latex', icd: { ident: 'Z9104', code: 'Z91.040', description: 'Latex allergy status' } });
    expect(body).toMatchObject({ icd10CodeId: 'Z9104', icd10Code: { ident: 'Z9104', code: 'Z91.040', description: '' } });
  });

  it('shows the diagnosis date rules under the end date field', () => {
    const def = conditionsDefinition(true);
    const body = def.toBody({ ...def.toValues(), name: 'Asthma', date: '03/2024', endDate: '01/2023' });
    expect(errorsOf(def, body)).toEqual({ endDate: 'End Date must come after Start Date' });
    expect(errorsOf(def, { ...body, date: '13/2024', endDate: '' })).toEqual({ date: 'Date is not valid' });
  });

  it('maps the medication Active checkbox to Active or Complete and checks the dates', () => {
    const body = medicationsDefinition.toBody({ ...medicationsDefinition.toValues(), productName: 'Metformin', active: false, start: '02/30/2024' });
    expect(body.status).toBe('Complete');
    expect(errorsOf(medicationsDefinition, body)).toEqual({ start: 'Start Date is not valid' });
  });

  it('offers the newest social-history answer for editing', () => {
    const values = socialHistoryDefinition.toValues({
      ident: 's1',
      patientId: 'p',
      question: 'Tobacco use',
      answers: [
        { ident: 'a1', answer: 'Never', timestamp: '2023-01-01T00:00:00Z', userId: 'u' },
        { ident: 'a2', answer: 'Former', timestamp: '2024-01-01T00:00:00Z', userId: 'u' },
      ],
      pinned: false,
      startDate: '',
      endDate: '',
      notes: '',
      createdAt: '',
      updatedAt: '',
    });
    expect(values.answer).toBe('Former');
  });

  it('names deleted items by the data types of note links (spec §3, §4)', () => {
    const deleted = [allergiesDefinition(true), conditionsDefinition(true), medicationsDefinition].map((d) => CHART_MESSAGES.deletedLinked(d.linkType ?? d.noun));
    expect(deleted).toEqual(['This allergy has been deleted', 'This diagnosis has been deleted', 'This medication has been deleted']);
  });
});
