import { describe, expect, it } from 'vitest';
import { demographicsOf, mergeDemographics } from './demographics.js';
import { withoutSubjectLine } from './import-chart.js';
import { medicationName } from './medication-statements.js';
import { patientResource } from './patient.js';

describe('what a Tidewell → Tidewell move keeps as it was', () => {
  it("a note's plain text loses the Subject line the export opened it with, so a move adds none", () => {
    expect(withoutSubjectLine('Subject: Outside records\n\nRecords from Dr. Lee.', 'Outside records')).toBe('Records from Dr. Lee.');
    expect(withoutSubjectLine('Subject: Outside records', 'Outside records')).toBe('');
    // Text that merely mentions a subject, or another system's note, is left as written.
    expect(withoutSubjectLine('Subject: Other\n\nBody', 'Outside records')).toBe('Subject: Other\n\nBody');
    expect(withoutSubjectLine('Body', undefined)).toBe('Body');
  });

  it("a medication's name says its strength and form once", () => {
    expect(medicationName({ productName: 'Amoxicillin 500 mg capsule', strength: '500', strengthUOM: 'mg', dosageForm: 'capsule' })).toBe(
      'Amoxicillin 500 mg capsule',
    );
    expect(medicationName({ productName: 'Metformin', strength: '500', strengthUOM: 'mg', dosageForm: 'tablet' })).toBe('Metformin 500 mg tablet');
    expect(medicationName({ productName: 'Fish oil' })).toBe('Fish oil');
  });

  it("the patient's race, ethnicity, birth sex and outside identifiers go out and come back the same", () => {
    const demographics = {
      race: { omb: [{ system: 'urn:oid:2.16.840.1.113883.6.238', code: '2054-5', display: 'Black or African American' }], text: 'Black' },
      ethnicity: { omb: [{ system: 'urn:oid:2.16.840.1.113883.6.238', code: '2135-2', display: 'Hispanic or Latino' }], text: 'Hispanic or Latino' },
      birthSex: 'M' as const,
      identifiers: [{ system: 'urn:oid:1.2.3', value: 'MRN-1', type: 'MR', label: 'Medical record number' }],
    };
    const patient = {
      id: 'p1',
      firstName: 'A',
      lastName: 'B',
      gender: 'male' as const,
      demographics,
      membershipStatus: 'active' as const,
      status: 'active' as const,
      createdAt: '',
      updatedAt: '',
    };
    const exported = patientResource('demo', patient);
    // Into another practice: the first practice's own id comes along as an outside identifier.
    const back = demographicsOf(exported, 'other');
    expect(back).toMatchObject({ race: demographics.race, ethnicity: demographics.ethnicity, birthSex: 'M' });
    expect(back!.identifiers).toContainEqual(demographics.identifiers[0]);
    // Into the same practice: its own id is the chart itself.
    expect(demographicsOf(exported, 'demo')!.identifiers).toEqual(demographics.identifiers);
    // What the chart already has is kept; identifiers it lacks are added once.
    const merged = mergeDemographics({ birthSex: 'UNK', identifiers: demographics.identifiers }, back!);
    expect(merged.birthSex).toBe('UNK');
    expect(merged.identifiers).toHaveLength(back!.identifiers!.length);
  });

  it('a Patient saying none of it gives nothing to keep, and an SSN is never kept', () => {
    expect(demographicsOf({ resourceType: 'Patient', name: [{ family: 'X' }] })).toBeUndefined();
    expect(demographicsOf({ resourceType: 'Patient', identifier: [{ system: 'http://hl7.org/fhir/sid/us-ssn', value: '999-12-3456' }] })).toBeUndefined();
  });
});
