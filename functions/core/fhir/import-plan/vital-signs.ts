import { impossibleVitals, leftOutReason } from '../../../../shared/notes/vitals-ranges.js';
import { SYSTEMS } from '../fhir-core.js';
import { vitalValue } from '../import-values.js';
import { VITAL_CODES } from '../vitals.js';
import type { Json, PlanOutcome } from './planned.js';
import { codeIn, dateOnly, day, instant, text } from './read.js';

/** The LOINCs each vital is also written with: a measuring site or method of the same vital. */
const VITAL_ALSO: Record<string, string[]> = {
  temp: ['8331-1', '8332-9', '8328-7', '8333-7', '8310-5'],
  heartRate: ['8889-8', '8893-0'],
  spo2: ['2708-6', '59417-6'],
  height: ['8306-3', '8308-9'],
  weight: ['3141-9', '8335-2'],
  headCircumference: ['8287-5'],
};
const BP_PANELS = new Set(['85354-9', '55284-4', '35094-2']);
const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
export const VITAL_LOINCS = new Set([
  ...Object.values(VITAL_CODES).map((c) => c.loinc),
  ...Object.values(VITAL_ALSO).flat(),
  ...BP_PANELS,
  SYSTOLIC,
  DIASTOLIC,
]);

/** The vitals form's values one vital-signs Observation gives; undefined when it is none of them. */
function vitalValues(r: Json, loincs: string[]): Record<string, number> | undefined {
  const values: Record<string, number> = {};
  const pressure = (code: string | undefined, q: Json | undefined) => {
    if (typeof q?.value !== 'number') return;
    if (code === SYSTOLIC) values.systolic = q.value;
    if (code === DIASTOLIC) values.diastolic = q.value;
  };
  const components = (r.component as Json[] | undefined) ?? [];
  if (loincs.some((c) => BP_PANELS.has(c)) || components.some((c) => [SYSTOLIC, DIASTOLIC].includes(codeIn(c.code, SYSTEMS.loinc) ?? ''))) {
    for (const c of components) pressure(codeIn(c.code, SYSTEMS.loinc), c.valueQuantity);
    return values;
  }
  if (loincs.includes(SYSTOLIC) || loincs.includes(DIASTOLIC)) {
    pressure(loincs.includes(SYSTOLIC) ? SYSTOLIC : DIASTOLIC, r.valueQuantity);
    return values;
  }
  const key = Object.keys(VITAL_CODES).find((k) => loincs.includes(VITAL_CODES[k]!.loinc) || (VITAL_ALSO[k] ?? []).some((c) => loincs.includes(c)));
  if (!key) return undefined;
  const value = vitalValue(key, r.valueQuantity);
  if (value !== undefined) values[key] = value;
  return values;
}

/** A vital-signs Observation becomes part of the vitals note of the moment it was measured. */
export function planVitalSign(r: Json, loincs: string[], notMeasured: string | undefined): PlanOutcome {
  const name = text(r.code) ?? 'Vital sign';
  if (notMeasured) return { summary: `Vital sign: ${name}`, reason: notMeasured };
  const when = r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.effectiveInstant;
  const values = vitalValues(r, loincs);
  if (values === undefined) return { summary: `Vital sign: ${name}`, reason: 'Not one of the vital signs Tidewell records' };
  if (Object.keys(values).length === 0)
    return {
      summary: `Vital sign: ${name}`,
      reason: r.dataAbsentReason || r.component?.some((c: Json) => c.dataAbsentReason) ? 'It has no value' : 'Not in the units Tidewell records',
    };
  // A value no patient could have (a unit slip at the source) is listed as left out, with the range, not charted.
  const impossible = impossibleVitals(values);
  if (impossible.length) return { summary: `Vital sign: ${name}`, reason: leftOutReason(impossible) };
  // A date without a time is that day's measurement (noon UTC keeps the day in every US time zone).
  const at = instant(when) ?? dateOnly(when);
  if (!at) return { summary: `Vital sign: ${name}`, reason: 'It has no date' };
  // One vitals note per moment measured, however each Observation writes its time zone.
  return { summary: `Vitals on ${day(when)}: ${name}`, planned: { kind: 'vital', at, values } };
}
