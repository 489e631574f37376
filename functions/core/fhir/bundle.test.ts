import { describe, expect, it } from 'vitest';
import type { PhoneCall } from '../../../shared/calls/call-schema.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { expectValidBundle, schemaErrors, structureErrors, usCoreProblems } from '../../../test/support/fhir-checks.js';
import { chartBundle } from './bundle.js';
import type { ChartSource } from './model.js';

const meta = (ident: string) => ({ ident, patientId: 'p1', createdAt: '2025-01-02T10:00:00.000Z', updatedAt: '2025-01-02T10:00:00.000Z' });
const author = { userId: 'u-prov', name: 'Dr. Dana Reyes', email: 'dana@example.com' };
function note(noteId: string, noteType: Note['noteType'], data: Record<string, unknown>, extra: Partial<Note> = {}): Note {
  return {
    noteId,
    noteType,
    status: 'SIGNED',
    signed: '2025-02-01T10:00:00.000Z',
    eventTimestamp: '2025-02-01T09:00:00.000Z',
    timestamp: '2025-02-01T10:00:00.000Z',
    createdAt: '2025-02-01T09:00:00.000Z',
    data,
    patientId: 'p1',
    hidden: false,
    files: [],
    author,
    onBehalfOf: null,
    noteVersion: 2,
    ...extra,
  };
}

/** A chart with every kind of data Tidewell keeps. */
function call(c: Partial<PhoneCall> & Pick<PhoneCall, 'ident' | 'direction' | 'callStatus' | 'caller' | 'recipient' | 'createdAt'>): PhoneCall {
  return {
    callSid: null,
    status: 'READ',
    callerName: null,
    recipientName: null,
    patientId: 'p1',
    patientName: 'Ada Lovelace',
    assigned: null,
    placedBy: null,
    voicemailKey: null,
    voicemailSeconds: null,
    durationSeconds: null,
    noteId: null,
    updatedAt: c.createdAt,
    ...c,
  };
}

export function fullSource(): ChartSource {
  return {
    practiceId: 'demo',
    patient: {
      id: 'p1',
      firstName: 'Ada',
      middleName: 'M',
      lastName: 'Lovelace',
      chosenFirstName: 'Addie',
      dob: '1980-04-05',
      gender: 'female',
      email: 'ada@example.com',
      primaryPhoneNumber: '+15555550100',
      phones: [
        { type: 'mobile', number: '+15555550100' },
        { type: 'work', number: '+15555550101' },
      ],
      address: { line1: '1 Main St', city: 'Portland', state: 'OR', zip: '97201' },
      emergencyContact: { name: 'Bob', phoneNumber: '+15555550102' },
      demographics: {
        race: { omb: [{ system: 'urn:oid:2.16.840.1.113883.6.238', code: '2106-3', display: 'White' }], text: 'White' },
        ethnicity: { omb: [{ system: 'urn:oid:2.16.840.1.113883.6.238', code: '2186-5', display: 'Not Hispanic or Latino' }] },
        birthSex: 'F',
        identifiers: [{ system: 'urn:oid:1.2.36.146.595.217.0.1', value: 'MRN-12345', type: 'MR', label: 'Medical record number' }],
      },
      membershipStatus: 'active',
      status: 'active',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    } as ChartSource['patient'],
    allergies: [
      {
        ...meta('a1'),
        name: 'Penicillin',
        description: 'Hives',
        startDate: '2010-05-01',
        endDate: '',
        active: true,
        pinned: false,
        severity: 'severe',
        icd10Code: { ident: 'x', code: 'Z88.0', description: 'Allergy status to penicillin' },
        allergen: { kind: 'ingredient', name: 'penicillin G', rxcui: '7980' },
      },
      {
        ...meta('a2'),
        name: 'Tree nuts',
        description: 'Anaphylaxis',
        startDate: '2001-01-01',
        endDate: '2020-06-01',
        active: false,
        pinned: false,
        codings: [{ system: 'http://snomed.info/sct', code: '91934008', display: 'Allergy to nut' }],
      },
      { ...meta('a3'), name: 'Latex', description: '', startDate: '', endDate: '', active: true, pinned: false },
    ],
    diagnoses: [
      {
        ...meta('d1'),
        name: 'Type 2 diabetes',
        description: '',
        date: '2019-03',
        endDate: '',
        pinned: true,
        active: true,
        icd10Code: { ident: 'e11', code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
      },
      {
        ...meta('d3'),
        name: 'Hypertension',
        description: '',
        date: '2018-01',
        endDate: '',
        pinned: false,
        active: true,
        icd10Code: { ident: 'i10', code: 'I10', description: 'Essential (primary) hypertension' },
        codings: [{ system: 'http://snomed.info/sct', code: '59621000', display: 'Essential hypertension' }],
      },
      { ...meta('d2'), name: 'Sprained ankle', description: 'Left', date: '2020-01', endDate: '2020-03', pinned: false, active: false },
    ],
    medications: [
      {
        ...meta('m1'),
        productName: 'Metformin',
        strength: '500',
        strengthUOM: 'mg',
        sigText: '1 tab twice daily',
        status: 'Active',
        start: '2019-03-10',
        end: '',
        expiration: '',
        code: { type: 'NDC', value: '00093-1048-01' },
        pinned: false,
      } as ChartSource['medications'][number],
      {
        ...meta('m2'),
        productName: 'Amoxicillin 500 mg capsule',
        strength: '500',
        strengthUOM: 'mg',
        dosageForm: 'capsule',
        routeOfAdministration: 'Oral',
        sigText: '1 cap three times daily',
        status: 'Active',
        start: '2025-01-10',
        end: '',
        expiration: '',
        pinned: false,
        codings: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308191', display: 'amoxicillin 500 MG Oral Capsule' }],
      } as ChartSource['medications'][number],
    ],
    freeformMedications: [{ ...meta('f1'), name: 'Fish oil' }],
    vaccines: [
      {
        ...meta('v1'),
        name: 'Influenza, seasonal',
        cvxCode: '141',
        mvxCode: 'SKB',
        date: '2024-10-01',
        doseNumber: 1,
        lotNumber: 'L123',
        expirationDate: '2025-06-30',
        administrationSite: 'LD',
        administrationRoute: 'IM',
        administeringProviderName: 'Nurse Joy',
        pinned: false,
      },
      { ...meta('v2'), name: 'Childhood vaccine', pinned: false },
    ] as ChartSource['vaccines'],
    surgeries: [
      {
        ...meta('s1'),
        name: 'Appendectomy',
        description: 'Laparoscopic',
        date: '2005-07-12',
        pinned: false,
        codings: [{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }],
      },
    ],
    familyHistory: [
      {
        ...meta('fh1'),
        diagnosis: 'Breast cancer',
        family: ['MTH', 'MGRMTH'],
        details: 'At 50',
        pinned: false,
        icd10Code: { ident: 'c50', code: 'C50.919', description: 'Malignant neoplasm of breast' },
      },
    ],
    socialHistory: [
      {
        ...meta('sh1'),
        question: 'Do you smoke?',
        answers: [{ ident: 'ans1', answer: 'Never', timestamp: '2025-01-02T10:00:00.000Z', userId: 'u-prov' }],
        pinned: false,
        startDate: '',
        endDate: '',
        notes: '',
      },
    ],
    general: [{ ...meta('g1'), name: 'Lives alone', details: 'Needs rides', startDate: '2024-01-01', endDate: '', pinned: false }],
    notes: [
      note(
        'n-visit',
        'NOTE',
        { text: 'Follow-up visit. Stable.', formattedText: '<p>Follow-up visit. Stable.</p>' },
        { files: [{ key: 'p1/notes/n-visit/abc/scan.pdf', name: 'scan.pdf', contentType: 'application/pdf', size: 1234 }] },
      ),
      note('n-draft', 'NOTE', {}, { status: 'DRAFT', signed: null }),
      note('n-vitals', 'VITALS', {
        systolic: 128,
        diastolic: 82,
        heartRate: 71,
        spo2: 98,
        temp: 98.6,
        respiratoryRate: 14,
        height: 65,
        weight: 150,
        bmi: 24.96,
        growthPercentile: 40,
        tempUnit: '°F',
        heightUnit: 'in',
        weightUnit: 'lb',
      }),
      note('n-lab', 'LAB', {
        tests: ['24323-8'],
        orderStatus: 'final',
        orderedFrom: 'Quest',
        collectedAt: '2025-02-02T08:00:00.000Z',
        lastUpdated: '2025-02-03T08:00:00.000Z',
        orderingProvider: { userId: 'u-prov', name: 'Dr. Dana Reyes', resourceId: 'pr1' },
        results: [
          {
            id: 'r1',
            text: 'Glucose',
            code: '2345-7',
            interpretation: 'H',
            valueQuantity: { value: 130, unit: 'mg/dL' },
            ranges: [{ low: 70, high: 99 }],
            reportId: 'rep1',
            panel: '24323-8',
            issued: '2025-02-03T08:00:00.000Z',
          },
          { id: 'r2', text: 'Comment', code: 'X-1', valueString: 'Fasting', reportId: 'rep1', panel: '24323-8' },
        ],
      }),
      note('n-rx', 'RX', {
        medicationName: 'Amoxicillin 500 mg capsule',
        ndcNumber: '65862-0017-01',
        providerId: 'u-prov',
        providerName: 'Dr. Dana Reyes',
        providerNpi: '1234567893',
        quantityPrescribed: 20,
        daysOfTreatment: 10,
        numberOfRefills: 0,
        instructions: 'Take 1',
        frequency: 'twice daily',
        datePrescribed: '02/01/2025',
        dateFulfilled: '02/01/2025',
        daw: false,
      }),
      note('n-ds', 'RX_DOSESPOT', {
        prescription: {
          id: 'ds1',
          medicationName: 'Lisinopril 10 mg',
          rxNorm: '314076',
          datePrescribed: '2025-01-15',
          providerName: 'Dr. Dana Reyes',
          quantityPrescribed: 30,
        },
      }),
      note('n-sale', 'SALES', {
        items: [
          { kind: 'inventory', refId: 'inv1', quantity: 2, name: 'Ibuprofen 200 mg', code: null, unitPriceInCents: 100, lineTotalInCents: 200 },
          { kind: 'charge', refId: 'c1', quantity: 1, name: 'Visit', code: '99213', unitPriceInCents: 5000, lineTotalInCents: 5000 },
        ],
      }),
      note(
        'n-sms-in',
        'SMS',
        { text: 'Can I refill?', direction: 'inbound', deliveryStatus: 'DELIVERED', timestamp: '2025-02-04T12:00:00.000Z' },
        { status: 'DELIVERED', author: { userId: 'sms-inbound', name: 'Text message' } },
      ),
      note('n-subject', 'DOCUMENT', { subject: 'Outside records', text: 'Records from Dr. Lee.' }),
      note('n-econsult', 'ECONSULT_THEA', { text: 'Consult answered.' }),
      note(
        'n-sms-out',
        'SMS',
        { text: 'Yes, sent.', direction: 'outbound', deliveryStatus: 'DELIVERED', timestamp: '2025-02-04T12:05:00.000Z' },
        { status: 'DELIVERED' },
      ),
      note('n-call', 'PHONE_CALL', { text: 'Called about results.' }),
      note(
        'n-vm',
        'PHONE_CALL',
        {
          text: 'Voicemail from (555) 555-0100 (Ada Lovelace)',
          direction: 'INBOUND',
          callIdent: 'call-vm',
          from: '+15555550100',
          to: '+15035550100',
          missed: false,
          voicemailKey: 'protected/p1/calls/voicemail-RE1.wav',
          voicemailSeconds: 12,
        },
        { status: 'DELIVERED', signed: null, files: [{ key: 'protected/p1/calls/voicemail-RE1.wav', name: 'voicemail.wav', contentType: 'audio/wav' }] },
      ),
      note(
        'n-form',
        'FORM',
        {
          formId: 'intake-1',
          formName: 'New patient intake',
          sendMethod: 'Email',
          sentTo: 'ada@example.com',
          intakeId: 'iq-1',
          dateSent: '2025-01-20T10:00:00.000Z',
          dateSubmitted: '2025-01-21T10:00:00.000Z',
          submissionData: {
            Status: 'Submitted',
            DateSubmitted: '2025-01-21T10:00:00.000Z',
            QuestionnaireId: 'intake-1',
            Questions: [
              { Id: 'q-smoke', Text: 'Do you smoke?', Answer: 'No', QuestionType: 'OpenQuestion' },
              { Id: 'q-empty', Text: 'Anything else?', Answer: '', QuestionType: 'OpenQuestion' },
            ],
          },
        },
        { status: 'DELIVERED' },
      ),
      note(
        'n-fax-out',
        'FAX',
        {
          direction: 'OUTBOUND',
          faxIdent: 'fx1',
          to: '+15035550199',
          from: '+15035550100',
          recipientName: 'Dr. Lee',
          text: 'Records attached.',
          sentAt: '2025-02-05T10:00:00.000Z',
        },
        { status: 'DELIVERED', files: [{ key: 'p1/generated-faxes/fx1.pdf', name: 'fax.pdf', contentType: 'application/pdf' }] },
      ),
      note(
        'n-fax-in',
        'FAX',
        { direction: 'INBOUND', faxIdent: 'fx2', from: '+15035550177', to: '+15035550100', text: 'Fax received from +15035550177', pages: 2 },
        { status: 'DELIVERED' },
      ),
    ],
    appointments: [
      {
        appointmentId: 'ap1',
        patientId: 'p1',
        appointmentTypeId: 'follow-up',
        providerId: 'u-prov',
        bookingLocationId: 'loc-main',
        visitType: 'in_person',
        start: '2025-03-10T16:00:00.000Z',
        durationMinutes: 30,
        recurrence: { frequency: 'Never', interval: 1, monthlyMode: 'BYMONTHDAY', ordinal: 1, end: 'NEVER', count: 1, until: null },
        notes: 'Bring glucose log',
        excludedDays: [],
        detachedFrom: null,
        createdBy: 'u-prov',
        createdAt: '2025-02-01T10:00:00.000Z',
        updatedAt: '2025-02-01T10:00:00.000Z',
      },
      // Every other Tuesday 10:00 Chicago, 4 times: the 2nd (03-25) cancelled alone, the 3rd (04-08) moved to 14:00.
      {
        appointmentId: 'ap2',
        patientId: 'p1',
        appointmentTypeId: 'therapy',
        providerId: 'u-other',
        bookingLocationId: null,
        visitType: 'virtual',
        start: '2025-03-11T15:00:00.000Z',
        durationMinutes: 45,
        recurrence: { frequency: 'Weekly', interval: 2, monthlyMode: 'BYMONTHDAY', ordinal: 1, end: 'COUNT', count: 4, until: null },
        notes: '',
        excludedDays: ['2025-03-25', '2025-04-08'],
        detachedFrom: null,
        createdBy: 'u-prov',
        createdAt: '2025-02-01T10:00:00.000Z',
        updatedAt: '2025-02-01T10:00:00.000Z',
      },
      {
        appointmentId: 'ap3',
        patientId: 'p1',
        appointmentTypeId: 'therapy',
        providerId: 'u-other',
        bookingLocationId: null,
        visitType: 'virtual',
        start: '2025-04-08T19:00:00.000Z',
        durationMinutes: 45,
        recurrence: { frequency: 'Never', interval: 1, monthlyMode: 'BYMONTHDAY', ordinal: 1, end: 'NEVER', count: 1, until: null },
        notes: '',
        excludedDays: [],
        detachedFrom: { appointmentId: 'ap2', occurrenceDay: '2025-04-08' },
        createdBy: 'u-prov',
        createdAt: '2025-02-01T10:00:00.000Z',
        updatedAt: '2025-02-01T10:00:00.000Z',
      },
    ] as unknown as ChartSource['appointments'],
    directory: {
      users: new Map([
        ['u-prov', { name: 'Dr. Dana Reyes', firstName: 'Dana', lastName: 'Reyes', npi: '1234567893', email: 'dana@example.com' }],
        // Named by nothing in the chart but an appointment.
        ['u-other', { name: 'Sam Ortiz', firstName: 'Sam', lastName: 'Ortiz', npi: null, email: 'sam@example.com' }],
      ]),
      appointmentTypes: new Map([
        ['follow-up', 'Follow-up visit'],
        ['therapy', 'Therapy session'],
      ]),
      locations: new Map([
        ['loc-main', { ident: 'loc-main', name: 'Main office', address: '100 Congress Ave, Austin, TX 78701', status: 'active', createdAt: '', updatedAt: '' }],
      ]),
      timeZone: 'America/Chicago',
    },
    calls: [
      call({
        ident: 'call-out',
        callSid: 'CA1',
        direction: 'OUTBOUND',
        status: 'READ',
        callStatus: 'completed',
        caller: '+15035550100',
        recipient: '+15555550100',
        assigned: 'u-prov',
        placedBy: 'u-prov',
        durationSeconds: 125,
        createdAt: '2025-02-06T15:00:00.000Z',
      }),
      call({
        ident: 'call-missed',
        callSid: 'CA2',
        direction: 'INBOUND',
        status: 'UNREAD',
        callStatus: 'no-answer',
        caller: '+15555550101',
        recipient: '+15035550100',
        createdAt: '2025-02-07T15:00:00.000Z',
      }),
      call({
        ident: 'call-vm',
        callSid: 'CA3',
        direction: 'INBOUND',
        status: 'READ',
        callStatus: 'completed',
        caller: '+15555550100',
        recipient: '+15035550100',
        assigned: 'u-front',
        voicemailKey: 'protected/p1/calls/voicemail-RE1.wav',
        voicemailSeconds: 12,
        durationSeconds: 30,
        noteId: 'n-vm',
        createdAt: '2025-02-08T15:00:00.000Z',
      }),
    ],
    userNames: new Map([
      ['u-prov', 'Dr. Dana Reyes'],
      ['u-front', 'Sam Front'],
    ]),
    inventory: new Map([
      [
        'inv1',
        {
          inventoryId: 'inv1',
          genericName: 'Ibuprofen',
          strength: '200 mg',
          form: 'tablet',
          ndcNumber: '0904-5853-61',
          quantityInStock: 10,
          isHidden: false,
          costPerUnit: 10,
          finalPrice: 100,
        },
      ],
    ]),
    filePaths: new Map([
      ['p1/notes/n-visit/abc/scan.pdf', 'files/0001-scan.pdf'],
      ['protected/p1/calls/voicemail-RE1.wav', 'files/0002-voicemail.wav'],
      ['p1/generated-faxes/fx1.pdf', 'files/0003-fax.pdf'],
    ]),
  };
}

const at = new Date('2025-03-01T00:00:00.000Z');
const byType = (b: ReturnType<typeof chartBundle>, type: string) =>
  b.entry.map((e) => e.resource).filter((r) => r.resourceType === type) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('a chart as a FHIR R4 bundle', () => {
  const bundle = chartBundle(fullSource(), at);

  it('validates against the R4 schema and US Core, and every reference resolves inside it', () => {
    expectValidBundle(bundle as never);
  });

  it('writes one resource of each kind the issue lists', () => {
    const counts = Object.fromEntries(
      [
        'Patient',
        'Practitioner',
        'AllergyIntolerance',
        'Condition',
        'MedicationStatement',
        'MedicationRequest',
        'MedicationDispense',
        'Immunization',
        'Procedure',
        'FamilyMemberHistory',
        'Observation',
        'DiagnosticReport',
        'ServiceRequest',
        'DocumentReference',
        'Communication',
        'Appointment',
        'Location',
        'QuestionnaireResponse',
      ].map((t) => [t, byType(bundle, t).length]),
    );
    expect(counts).toEqual({
      Patient: 1,
      Practitioner: 4,
      AllergyIntolerance: 3,
      Condition: 4,
      MedicationStatement: 3,
      MedicationRequest: 2,
      MedicationDispense: 2,
      Immunization: 2,
      Procedure: 1,
      FamilyMemberHistory: 2,
      Observation: 8 + 1 + 1 + 2,
      DiagnosticReport: 1,
      ServiceRequest: 1,
      DocumentReference: 14 + 3,
      Communication: 2 + 2 + 3,
      Appointment: 4,
      Location: 1,
      QuestionnaireResponse: 1,
    });
  });

  it('maps appointments, submitted forms and faxes', () => {
    const patientRef = `urn:uuid:${byType(bundle, 'Patient')[0]!.id}`;
    const appointments = byType(bundle, 'Appointment');
    const [single, series, moved] = ['ap1', 'ap2', 'ap3'].map((id) => appointments.find((a) => a.identifier[0].value === id)!);
    expect(single).toMatchObject({
      status: 'booked',
      start: '2025-03-10T16:00:00.000Z',
      end: '2025-03-10T16:30:00.000Z',
      minutesDuration: 30,
      comment: 'Bring glucose log',
      appointmentType: { text: 'Follow-up visit' },
    });
    const [, providerRef, locationRef] = single!.participant.map((p: { actor: { reference: string } }) => p.actor.reference);
    expect(single!.participant[0].actor.reference).toBe(patientRef);
    const resolve = (ref: string) => bundle.entry.find((e) => e.fullUrl === ref)!.resource as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // The provider as another practice can find them: name, NPI, email.
    expect(resolve(providerRef)).toMatchObject({
      resourceType: 'Practitioner',
      name: [{ text: 'Dr. Dana Reyes', family: 'Reyes', given: ['Dana'] }],
      telecom: [{ system: 'email', value: 'dana@example.com' }],
    });
    expect(resolve(providerRef).identifier).toContainEqual({ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' });
    expect(resolve(locationRef)).toMatchObject({
      resourceType: 'Location',
      status: 'active',
      name: 'Main office',
      address: { text: '100 Congress Ave, Austin, TX 78701' },
    });
    // A user named by nothing but an appointment is still named.
    expect(resolve(series!.participant[1].actor.reference)).toMatchObject({
      name: [{ text: 'Sam Ortiz' }],
      telecom: [{ system: 'email', value: 'sam@example.com' }],
    });
    expect(series).toMatchObject({
      status: 'booked',
      start: '2025-03-11T15:00:00.000Z',
      description: 'Repeats weekly, every 2, 4 times.',
      appointmentType: { text: 'Therapy session' },
    });
    expect(series!.comment).toBeUndefined();
    expect(series!.serviceType[0].text).toBe('Virtual visit');
    expect(series!.participant).toHaveLength(2);
    expect(series!.extension).toEqual([
      {
        url: 'https://tidewell.app/fhir/StructureDefinition/appointment-recurrence',
        extension: [
          { url: 'frequency', valueCode: 'Weekly' },
          { url: 'interval', valuePositiveInt: 2 },
          { url: 'end', valueCode: 'COUNT' },
          { url: 'count', valuePositiveInt: 4 },
        ],
      },
    ]);
    const seriesRef = `urn:uuid:${series!.id}`;
    // The day in the practice's zone, and the instant the occurrence had in the series (for a practice in another zone).
    const occurrenceOf = (day: string, originalStart: string) => [
      {
        url: 'https://tidewell.app/fhir/StructureDefinition/appointment-occurrence',
        extension: [
          { url: 'series', valueReference: { reference: seriesRef } },
          { url: 'day', valueDate: day },
          { url: 'originalStart', valueDateTime: originalStart },
        ],
      },
    ];
    // Moved alone: its own booked Appointment naming the series' day it replaces.
    expect(moved).toMatchObject({ status: 'booked', start: '2025-04-08T19:00:00.000Z', extension: occurrenceOf('2025-04-08', '2025-04-08T15:00:00.000Z') });
    // Cancelled alone: a cancelled Appointment at the time it had (10:00 Chicago, daylight time by then).
    const cancelled = appointments.filter((a) => a.status === 'cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({
      start: '2025-03-25T15:00:00.000Z',
      end: '2025-03-25T15:45:00.000Z',
      extension: occurrenceOf('2025-03-25', '2025-03-25T15:00:00.000Z'),
      appointmentType: { text: 'Therapy session' },
    });
    const form = byType(bundle, 'QuestionnaireResponse')[0]!;
    expect(form).toMatchObject({
      status: 'completed',
      authored: '2025-01-21T10:00:00.000Z',
      subject: { reference: patientRef },
      source: { reference: patientRef },
    });
    expect(form.extension).toEqual([{ url: 'https://tidewell.app/fhir/StructureDefinition/form-name', valueString: 'New patient intake' }]);
    expect(form.item).toEqual([
      { linkId: 'q-smoke', text: 'Do you smoke?', answer: [{ valueString: 'No' }] },
      { linkId: 'q-empty', text: 'Anything else?' },
    ]);
    const faxes = byType(bundle, 'Communication').filter((c) => c.medium[0].coding[0].code === 'FAXWRIT');
    const sent = faxes.find((f) => f.identifier[0].value === 'n-fax-out')!;
    expect(sent).toMatchObject({ status: 'completed', sent: '2025-02-05T10:00:00.000Z', note: [{ text: 'To fax +15035550199 (Dr. Lee)' }] });
    expect(sent.payload).toEqual([
      { contentString: 'Records attached.' },
      { contentAttachment: { contentType: 'application/pdf', title: 'fax.pdf', url: 'files/0003-fax.pdf' } },
    ]);
    const received = faxes.find((f) => f.identifier[0].value === 'n-fax-in')!;
    expect(received.received).toBe('2025-02-01T09:00:00.000Z');
    expect(received.note).toEqual([{ text: 'From fax +15035550177' }, { text: '2 pages' }]);
  });

  it('maps phone calls: direction, the other number, outcome, duration, the user, and a voicemail as the binary in the zip', () => {
    const patientRef = `urn:uuid:${byType(bundle, 'Patient')[0]!.id}`;
    const calls = byType(bundle, 'Communication').filter((c) => c.medium[0].coding[0].code === 'PHONE');
    expect(calls.map((c) => c.identifier[0].value)).toEqual(['call-out', 'call-missed', 'call-vm']);
    const [out, missed, vm] = calls;
    const reyes = byType(bundle, 'Practitioner').find((p) => p.name[0].text === 'Dr. Dana Reyes')!;
    expect(out).toMatchObject({
      status: 'completed',
      sent: '2025-02-06T15:00:00.000Z',
      subject: { reference: patientRef },
      sender: { reference: `urn:uuid:${reyes.id}` },
      category: [{ text: 'Call placed: Answered' }],
    });
    expect(out!.note).toEqual([{ text: 'To phone +15555550100' }, { text: 'From practice number +15035550100' }]);
    expect(out!.extension).toEqual([
      {
        url: 'https://tidewell.app/fhir/StructureDefinition/call-duration',
        valueDuration: { value: 125, unit: 's', system: 'http://unitsofmeasure.org', code: 's' },
      },
    ]);
    expect(missed).toMatchObject({ status: 'not-done', statusReason: { text: 'Missed call' }, received: '2025-02-07T15:00:00.000Z' });
    expect(missed!.recipient).toBeUndefined();
    expect(missed!.note[0].text).toBe('From phone +15555550101');
    expect(vm).toMatchObject({ status: 'completed', category: [{ text: 'Call received: Voicemail' }] });
    expect(vm!.recipient[0].display).toBe('Sam Front');
    expect(vm!.payload).toEqual([
      { contentString: 'Voicemail from (555) 555-0100 (Ada Lovelace)' },
      { contentAttachment: { contentType: 'audio/wav', title: 'voicemail.wav', url: 'files/0002-voicemail.wav' } },
    ]);
    const vmNote = byType(bundle, 'DocumentReference').find((d) => d.identifier[0].value === 'n-vm')!;
    expect(vm!.about).toEqual([{ reference: `urn:uuid:${vmNote.id}` }]);
  });

  it('codes with ICD-10-CM, CVX/MVX, NDC, RxNorm, LOINC and UCUM', () => {
    const diabetes = byType(bundle, 'Condition').find((c) => c.code.text === 'Type 2 diabetes')!;
    expect(diabetes.code.coding).toEqual([
      { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' },
    ]);
    expect(diabetes.clinicalStatus.coding[0].code).toBe('active');
    expect(byType(bundle, 'Condition').find((c) => c.code.text === 'Sprained ankle')!.clinicalStatus.coding[0].code).toBe('resolved');
    const flu = byType(bundle, 'Immunization').find((i) => i.vaccineCode.text === 'Influenza, seasonal')!;
    expect(flu.vaccineCode.coding).toEqual([{ system: 'http://hl7.org/fhir/sid/cvx', code: '141' }]);
    expect(flu.manufacturer.identifier).toEqual({ system: 'http://hl7.org/fhir/sid/mvx', value: 'SKB' });
    expect(flu.route.coding[0].code).toBe('IM');
    // A vaccine recorded by name is named, never coded CVX 999.
    expect(byType(bundle, 'Immunization').find((i) => i.vaccineCode.text === 'Childhood vaccine')!.vaccineCode).toEqual({ text: 'Childhood vaccine' });
    const rx = byType(bundle, 'MedicationRequest').find((m) => m.reportedBoolean === false)!;
    expect(rx.medicationCodeableConcept.coding).toEqual([{ system: 'http://hl7.org/fhir/sid/ndc', code: '65862-0017-01' }]);
    expect(rx.authoredOn).toBe('2025-02-01');
    expect(rx.status).toBe('completed');
    const ds = byType(bundle, 'MedicationRequest').find((m) => m.reportedBoolean === true)!;
    expect(ds.medicationCodeableConcept.coding[0]).toEqual({ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '314076' });
    const sale = byType(bundle, 'MedicationDispense').find((d) => d.quantity.value === 2)!;
    expect(sale.medicationCodeableConcept.coding).toEqual([{ system: 'http://hl7.org/fhir/sid/ndc', code: '0904-5853-61' }]);
    const obs = byType(bundle, 'Observation');
    const bp = obs.find((o) => o.code.coding?.[0]?.code === '85354-9')!;
    expect(
      bp.component.map((c: { code: { coding: { code: string }[] }; valueQuantity: { value: number; code: string } }) => [
        c.code.coding[0]!.code,
        c.valueQuantity.value,
        c.valueQuantity.code,
      ]),
    ).toEqual([
      ['8480-6', 128, 'mm[Hg]'],
      ['8462-4', 82, 'mm[Hg]'],
    ]);
    const weight = obs.find((o) => o.code.coding?.[0]?.code === '29463-7')!;
    expect(weight.valueQuantity).toEqual({ value: 150, unit: 'lb', system: 'http://unitsofmeasure.org', code: '[lb_av]' });
    expect(obs.find((o) => o.code.coding?.[0]?.code === '8310-5')!.valueQuantity.code).toBe('[degF]');
    const glucose = obs.find((o) => o.code.coding?.[0]?.code === '2345-7')!;
    expect(glucose.interpretation[0].coding[0].code).toBe('H');
    expect(glucose.referenceRange[0].high.value).toBe(99);
    const report = byType(bundle, 'DiagnosticReport')[0]!;
    expect(report.code.coding[0].code).toBe('24323-8');
    expect(report.result).toHaveLength(2);
    expect(report.basedOn[0].reference).toBe(`urn:uuid:${byType(bundle, 'ServiceRequest')[0]!.id}`);
  });

  it('attaches every note as text and points every file at its binary in the zip', () => {
    const docs = byType(bundle, 'DocumentReference');
    const visit = docs.find((d) => d.identifier[0].value === 'n-visit')!;
    expect(Buffer.from(visit.content[0].attachment.data, 'base64').toString('utf8')).toBe('Follow-up visit. Stable.');
    expect(visit.type.coding[0].code).toBe('11506-3');
    expect(visit.docStatus).toBe('final');
    expect(visit.author[0].display).toBe('Dr. Dana Reyes');
    expect(docs.find((d) => d.identifier[0].value === 'n-draft')!.docStatus).toBe('preliminary');
    const file = docs.find((d) => d.description === 'scan.pdf')!;
    expect(file.content[0].attachment).toMatchObject({ url: 'files/0001-scan.pdf', contentType: 'application/pdf', size: 1234 });
    expect(file.context.related[0].reference).toBe(`urn:uuid:${visit.id}`);
    const texts = byType(bundle, 'Communication');
    const patientRef = `urn:uuid:${byType(bundle, 'Patient')[0]!.id}`;
    expect(texts.find((t) => t.payload[0].contentString === 'Can I refill?')!.sender.reference).toBe(patientRef);
    expect(texts.find((t) => t.payload[0].contentString === 'Yes, sent.')!.recipient[0].reference).toBe(patientRef);
  });

  it('exports the same ids for the same chart, so an import recognises what it already has', () => {
    const again = chartBundle(fullSource(), new Date('2025-04-01T00:00:00.000Z'));
    expect(again.entry.map((e) => e.fullUrl)).toEqual(bundle.entry.map((e) => e.fullUrl));
  });

  it('every resource of a rich chart passes an independent validator (Medplum over the R4 StructureDefinitions)', () => {
    const problems = bundle.entry.flatMap((e) => structureErrors(e.resource).map((p) => `${e.resource.resourceType}/${e.resource.id}: ${p}`));
    expect(problems).toEqual([]);
    // The validator does fail a resource that breaks R4.
    expect(
      structureErrors({ resourceType: 'AllergyIntolerance', id: 'x', patient: { reference: 'Patient/1' }, clinicalStatus: 'active' }).length,
    ).toBeGreaterThan(0);
  });

  it('writes the codes and demographics outside charts carry, and none of the faults a validator found', () => {
    const patient = byType(bundle, 'Patient')[0]!;
    expect(patient.extension.map((e: { url: string }) => e.url)).toEqual([
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity',
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex',
    ]);
    expect(patient.extension[1].extension).toContainEqual({ url: 'text', valueString: 'Not Hispanic or Latino' });
    expect(patient.identifier[1]).toEqual({
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }], text: 'Medical record number' },
      system: 'urn:oid:1.2.36.146.595.217.0.1',
      value: 'MRN-12345',
    });
    const allergy = (name: string) => byType(bundle, 'AllergyIntolerance').find((a) => a.code.text === name)!;
    // The allergen's RxNorm ingredient, not the ICD-10 Z code (kept apart, so it comes back on import).
    expect(allergy('Penicillin').code.coding).toEqual([{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '7980', display: 'penicillin G' }]);
    expect(JSON.stringify(allergy('Penicillin').code)).not.toContain('Z88');
    expect(allergy('Tree nuts').code.coding).toEqual([{ system: 'http://snomed.info/sct', code: '91934008', display: 'Allergy to nut' }]);
    expect(allergy('Tree nuts').extension).toContainEqual({ url: 'https://tidewell.app/fhir/StructureDefinition/allergy-end', valueDate: '2020-06-01' });
    expect(allergy('Latex').code).toEqual({ text: 'Latex' });
    const htn = byType(bundle, 'Condition').find((c) => c.code.text === 'Hypertension')!;
    expect(htn.code.coding.map((c: { system: string }) => c.system)).toEqual(['http://hl7.org/fhir/sid/icd-10-cm', 'http://snomed.info/sct']);
    expect(byType(bundle, 'Procedure')[0]!.code.coding).toEqual([{ system: 'http://snomed.info/sct', code: '80146002', display: 'Appendectomy' }]);
    const amox = byType(bundle, 'MedicationStatement').find((m) => m.medicationCodeableConcept.text.startsWith('Amoxicillin'))!;
    expect(amox.medicationCodeableConcept).toEqual({
      coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '308191', display: 'amoxicillin 500 MG Oral Capsule' }],
      text: 'Amoxicillin 500 mg capsule',
    });
    expect(amox.dosage[0].route).toEqual({ text: 'Oral' });
    expect(byType(bundle, 'MedicationStatement').find((m) => m.medicationCodeableConcept.text.startsWith('Metformin'))!.medicationCodeableConcept.text).toBe(
      'Metformin 500 mg',
    );
    // An inbound text: the patient sent it; no Practitioner is made up for the messaging line.
    const inbound = byType(bundle, 'Communication').find((c) => c.payload[0].contentString === 'Can I refill?')!;
    expect(inbound.sender).toEqual({ reference: `urn:uuid:${patient.id}` });
    expect(inbound.recipient).toBeUndefined();
    expect(byType(bundle, 'Practitioner').map((p) => p.name[0].text)).not.toContain('Text message');
  });

  it('the checks catch what is wrong', () => {
    expect(schemaErrors({ resourceType: 'Condition', id: 'x', subject: { reference: 'urn:uuid:1' }, bogus: 1 }).length).toBeGreaterThan(0);
    expect(
      usCoreProblems({
        resourceType: 'Immunization',
        id: 'x',
        status: 'completed',
        vaccineCode: { text: 'flu' },
        patient: { reference: 'a' },
        occurrenceString: 'x',
      }),
    ).toEqual(['Immunization/x: primarySource']);
    expect(
      usCoreProblems({
        resourceType: 'Immunization',
        id: 'x',
        status: 'completed',
        vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '999' }] },
        patient: { reference: 'a' },
        occurrenceString: 'x',
        primarySource: false,
      }),
    ).toEqual(['Immunization/x: vaccineCode (CVX, else text)']);
    expect(usCoreProblems({ resourceType: 'Location', id: 'l', status: 'active' })).toEqual(['Location/l: name']);
  });
});
