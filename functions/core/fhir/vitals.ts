import type { Note } from '../../../shared/notes/note-schema.js';
import { clean, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS, type FhirResource } from './fhir-core.js';
import type { ChartMapper, MapContext } from './model.js';

interface VitalCode {
  loinc: string;
  display: string;
  ucum: string;
  unit: string;
}

/** The vitals form's fields (shared/notes/vitals.ts) in the units it records them, as US Core's vital-signs profiles code them. */
export const VITAL_CODES: Record<string, VitalCode> = {
  heartRate: { loinc: '8867-4', display: 'Heart rate', ucum: '/min', unit: 'beats/minute' },
  spo2: { loinc: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry', ucum: '%', unit: '%' },
  temp: { loinc: '8310-5', display: 'Body temperature', ucum: '[degF]', unit: 'degF' },
  respiratoryRate: { loinc: '9279-1', display: 'Respiratory rate', ucum: '/min', unit: 'breaths/minute' },
  height: { loinc: '8302-2', display: 'Body height', ucum: '[in_i]', unit: 'in' },
  weight: { loinc: '29463-7', display: 'Body weight', ucum: '[lb_av]', unit: 'lb' },
  bmi: { loinc: '39156-5', display: 'Body mass index (BMI) [Ratio]', ucum: 'kg/m2', unit: 'kg/m2' },
  headCircumference: { loinc: '9843-4', display: 'Head Occipital-frontal circumference', ucum: '[in_i]', unit: 'in' },
};
const SYSTOLIC: VitalCode = { loinc: '8480-6', display: 'Systolic blood pressure', ucum: 'mm[Hg]', unit: 'mmHg' };
const DIASTOLIC: VitalCode = { loinc: '8462-4', display: 'Diastolic blood pressure', ucum: 'mm[Hg]', unit: 'mmHg' };
/** Pulse oximetry is also coded as plain oxygen saturation, as US Core's pulse-oximetry profile asks. */
const SPO2_ALSO = { system: SYSTEMS.loinc, code: '2708-6', display: 'Oxygen saturation in Arterial blood' };

const VITAL_SIGNS = [{ coding: [{ system: SYSTEMS.obsCategory, code: 'vital-signs', display: 'Vital Signs' }] }];
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const quantity = (value: number, c: VitalCode) => ({ value, unit: c.unit, system: SYSTEMS.ucum, code: c.ucum });
const loinc = (c: VitalCode) => ({ system: SYSTEMS.loinc, code: c.loinc, display: c.display });

function observations(practiceId: string, ctx: MapContext, note: Note): FhirResource[] {
  const d = note.data as Record<string, unknown>;
  const base = (key: string) => ({
    resourceType: 'Observation',
    id: stableUuid('Observation', practiceId, 'vitals', note.noteId, key),
    identifier: [sourceIdentifier(practiceId, 'vitals', `${note.noteId}/${key}`)],
    status: note.status === 'DRAFT' ? 'preliminary' : 'final',
    category: VITAL_SIGNS,
    subject: ctx.patientRef,
    effectiveDateTime: fhirInstant(note.eventTimestamp),
    performer: ctx.practitioner(note.author) ? [ctx.practitioner(note.author)] : [],
  });
  const out: FhirResource[] = [];
  const sys = num(d.systolic);
  const dia = num(d.diastolic);
  if (sys !== undefined || dia !== undefined) {
    const component = (c: VitalCode, v: number | undefined) =>
      v !== undefined
        ? { code: { coding: [loinc(c)] }, valueQuantity: quantity(v, c) }
        : { code: { coding: [loinc(c)] }, dataAbsentReason: { coding: [{ system: SYSTEMS.dataAbsent, code: 'unknown' }] } };
    out.push(
      clean({
        ...base('bp'),
        code: { coding: [{ system: SYSTEMS.loinc, code: '85354-9', display: 'Blood pressure panel with all children optional' }], text: 'Blood pressure' },
        component: [component(SYSTOLIC, sys), component(DIASTOLIC, dia)],
      }),
    );
  }
  for (const [key, c] of Object.entries(VITAL_CODES)) {
    const v = num(d[key]);
    if (v === undefined) continue;
    out.push(clean({ ...base(key), code: { coding: key === 'spo2' ? [loinc(c), SPO2_ALSO] : [loinc(c)], text: c.display }, valueQuantity: quantity(v, c) }));
  }
  // No LOINC code says which growth chart a bare percentile is on: it keeps the form's own words.
  const growth = num(d.growthPercentile);
  if (growth !== undefined) {
    out.push(
      clean({
        ...base('growthPercentile'),
        category: [{ coding: [{ system: SYSTEMS.obsCategory, code: 'exam', display: 'Exam' }] }],
        code: { text: 'Growth percentile' },
        valueQuantity: { value: growth, unit: '%', system: SYSTEMS.ucum, code: '%' },
      }),
    );
  }
  return out;
}

export const vitals: ChartMapper = {
  kind: 'vitals',
  map: (src, ctx) => src.notes.filter((n) => n.noteType === 'VITALS').flatMap((n) => observations(src.practiceId, ctx, n)),
};
