import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A one-page PDF, as a lab's report PDF is carried in a bundle (presentedForm data). */
async function reportPdf(title: string): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 396]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(title, { x: 48, y: 330, size: 18, font });
  page.drawText('Potassium 5.6 mmol/L (H)   Sodium 139 mmol/L', { x: 48, y: 290, size: 12, font });
  return Buffer.from(await doc.save()).toString('base64');
}

/**
 * Another system's bundle holding one lab report: its order, two results (one out of range), the
 * lab's conclusion and its PDF.
 */
export async function labReportBundle(run: string): Promise<Record<string, unknown>> {
  const loinc = (code: string, display: string) => ({ coding: [{ system: 'http://loinc.org', code, display }], text: display });
  const lab = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }];
  const obs = (id: string, code: Record<string, unknown>, value: number, unit: string, low: number, high: number, flag: string) => ({
    fullUrl: `urn:uuid:${id}`,
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: lab,
      code,
      subject: { reference: 'Patient/p1' },
      effectiveDateTime: '2025-06-02T08:30:00Z',
      issued: '2025-06-03T10:00:00Z',
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: flag }] }],
      referenceRange: [{ low: { value: low, unit }, high: { value: high, unit } }],
    },
  });
  const k = `0b7e1c52-1111-4a4a-9a9a-${run.padStart(12, '0').slice(-12)}`;
  const na = `0b7e1c52-2222-4a4a-9a9a-${run.padStart(12, '0').slice(-12)}`;
  const sr = `0b7e1c52-3333-4a4a-9a9a-${run.padStart(12, '0').slice(-12)}`;
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      {
        fullUrl: `urn:uuid:${sr}`,
        resource: {
          resourceType: 'ServiceRequest',
          identifier: [{ system: 'https://ehr.example/orders', value: `bmp-${run}` }],
          status: 'completed',
          intent: 'order',
          code: loinc('51990-0', 'Basic metabolic panel'),
          subject: { reference: 'Patient/p1' },
          authoredOn: '2025-06-01T16:00:00Z',
        },
      },
      obs(k, loinc('2823-3', 'Potassium'), 5.6, 'mmol/L', 3.5, 5.1, 'H'),
      obs(na, loinc('2951-2', 'Sodium'), 139, 'mmol/L', 135, 145, 'N'),
      {
        resource: {
          resourceType: 'DiagnosticReport',
          identifier: [{ system: 'https://ehr.example/reports', value: `bmp-${run}` }],
          status: 'final',
          category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
          code: loinc('51990-0', 'Basic metabolic panel'),
          subject: { reference: 'Patient/p1' },
          effectiveDateTime: '2025-06-02T08:30:00Z',
          issued: '2025-06-03T10:00:00Z',
          performer: [{ display: 'Coastal Reference Lab' }],
          basedOn: [{ reference: `urn:uuid:${sr}` }],
          result: [{ reference: `urn:uuid:${k}` }, { reference: `urn:uuid:${na}` }],
          conclusion: 'Potassium mildly high; repeat in one week.',
          presentedForm: [{ contentType: 'application/pdf', title: 'bmp-report.pdf', data: await reportPdf('Coastal Reference Lab: Basic metabolic panel') }],
        },
      },
    ],
  };
}
