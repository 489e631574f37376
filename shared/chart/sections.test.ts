import { describe, expect, it } from 'vitest';
import { zodFieldErrorsOf } from '../patients/test-field-errors.js';
import {
  AllergyFields,
  AllergyInput,
  DiagnosisInput,
  FamilyHistoryInput,
  GeneralGroupBody,
  GeneralInput,
  MedicationInput,
  SocialHistoryInput,
  SurgeryInput,
  VaccineGroupBody,
  VaccineInput,
} from './sections.js';
import { diagnosisRules } from './sections.js';
import * as z from '../zod.js';

const errors = (schema: z.ZodMiniType, body: unknown) => zodFieldErrorsOf(schema.safeParse(body));

describe('allergy body', () => {
  it('defaults a new allergy to active, unpinned, empty description', () => {
    expect(AllergyInput.parse({ name: ' Penicillin ' })).toMatchObject({ name: 'Penicillin', active: true, pinned: false, description: '' });
  });
  it('accepts pinned as 0/1 or boolean, returns boolean; drops unknown fields', () => {
    const out = AllergyInput.parse({ name: 'Latex', pinned: 1, extra: 'x', severity: 'severe' });
    expect(out.pinned).toBe(true);
    expect(out).not.toHaveProperty('extra');
    expect(AllergyInput.parse({ name: 'Latex', pinned: 0 }).pinned).toBe(false);
    expect(AllergyInput.parse({ name: 'Latex', pinned: true }).pinned).toBe(true);
  });
  it('names wrong types and the missing name', () => {
    expect(errors(AllergyInput, { name: 5 })).toEqual({ name: 'Name must be text' });
    expect(errors(AllergyInput, {})).toEqual({ name: 'Name is required' });
    expect(errors(AllergyInput, { name: 'x', pinned: 'yes' })).toEqual({ pinned: 'Pinned must be true or false' });
    expect(errors(AllergyInput, { name: 'x', severity: 'fatal' })).toEqual({ severity: 'Severity is not a valid choice' });
  });
  it('normalises MM/DD/YYYY to ISO and rejects impossible dates with the spec message', () => {
    expect(AllergyInput.parse({ name: 'x', startDate: '3/4/2020' }).startDate).toBe('2020-03-04');
    expect(errors(AllergyInput, { name: 'x', startDate: '02/30/2020', endDate: 'soon' })).toEqual({
      startDate: 'Start Date is not valid',
      endDate: 'End Date is not valid',
    });
    expect(errors(AllergyInput, { name: 'x', startDate: '2020-05-01', endDate: '2020-04-01' })).toEqual({ endDate: 'End Date must come after Start Date' });
  });
  it('a partial update body leaves absent fields absent (no defaults overwrite stored values)', () => {
    expect(z.partial(AllergyFields).parse({ pinned: 1 })).toEqual({ pinned: true });
  });
});

describe('diagnosis body (month dates)', () => {
  it('requires name and pinned', () => {
    expect(errors(DiagnosisInput, {})).toEqual({ name: 'Name is required', pinned: 'Pinned is required' });
  });
  it('takes MM/YYYY, YYYY-MM or a full date and stores YYYY-MM', () => {
    expect(DiagnosisInput.parse({ name: 'x', pinned: 0, date: '3/2019', endDate: '2020-01-15' })).toMatchObject({
      date: '2019-03',
      endDate: '2020-01',
      active: true,
    });
  });
  it('applies every §5 rule with its message', () => {
    expect(errors(DiagnosisInput, { name: 'x', pinned: 0, date: '13/2019' })).toEqual({ date: 'Date is not valid' });
    expect(errors(DiagnosisInput, { name: 'x', pinned: 0, endDate: 'x' })).toEqual({ endDate: 'End Date is not valid' });
    expect(errors(DiagnosisInput, { name: 'x', pinned: 0, date: '2021-05', endDate: '2020-01' })).toEqual({ endDate: 'End Date must come after Start Date' });
    const issues: string[] = [];
    const ctx = { addIssue: (i: { message: string }) => issues.push(i.message) } as unknown as z.core.$RefinementCtx;
    diagnosisRules({ date: '2026-12', endDate: '2027-01' }, ctx, new Date(2026, 10, 21));
    expect(issues).toEqual(['Date cannot be in the future', 'End Date cannot be in the future']);
    expect(errors(DiagnosisInput, { name: 'x', pinned: 0, date: '12/2999' })).toEqual({ date: 'Date cannot be in the future' });
  });
});

describe('other sections', () => {
  it('medication: name required, start/end messages, status default Active', () => {
    expect(errors(MedicationInput, { start: 'x', end: '13/01/2020' })).toEqual({
      productName: 'Name is required',
      start: 'Start Date is not valid',
      end: 'End Date is not valid',
    });
    expect(MedicationInput.parse({ productName: 'Lisinopril', refills: '2' })).toMatchObject({ status: 'Active', refills: 2, pinned: false });
  });
  it('vaccine: date message, dose number, route and site codes', () => {
    expect(errors(VaccineInput, { name: 'Tdap', date: '2/31/2020' })).toEqual({ date: 'Date is not valid' });
    expect(errors(VaccineInput, { name: 'Tdap', administrationRoute: 'XX', administrationSite: 'LA' })).toEqual({
      administrationRoute: 'Administration route is not a valid choice',
    });
    expect(VaccineInput.parse({ name: 'Tdap', doseNumber: 2, administrationSite: 'RD' })).toMatchObject({ doseNumber: 2, administrationSite: 'RD' });
    expect(VaccineGroupBody.parse({ update: [{ ident: 'a', pinned: 1 }] }).update).toEqual([{ ident: 'a', pinned: true }]);
  });
  it('surgery, family history, general', () => {
    expect(errors(SurgeryInput, { date: 'x' })).toEqual({ name: 'Name is required', date: 'Date is not valid' });
    expect(errors(FamilyHistoryInput, { family: ['FTH'] })).toEqual({ diagnosis: 'Diagnosis is required' });
    expect(errors(FamilyHistoryInput, { diagnosis: 'x', family: ['UNCLE'] })).toEqual({ 'family.0': 'Family is not a valid choice' });
    expect(errors(GeneralInput, { startDate: 'x' })).toEqual({ name: 'Name is required', startDate: 'Start Date is not valid' });
  });
  it('general group: a group with an id needs a name', () => {
    expect(GeneralGroupBody.safeParse({ name: '' }).success).toBe(true);
    expect(errors(GeneralGroupBody, { ident: 'g1', name: '  ' })).toEqual({ name: 'Group Name is not valid' });
  });
  it('social history: question required, dates checked', () => {
    expect(errors(SocialHistoryInput, { endDate: '99/99/2020' })).toEqual({ question: 'Question is required', endDate: 'End Date is not valid' });
  });
});
