import { SYSTEMS } from './fhir-core.js';
import { VITAL_CODES } from './vitals.js';

/*
 * Values other systems write differently from Tidewell's own export, read as the chart records them:
 * SNOMED CT names, structured dosages and vitals in metric units.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** SNOMED CT names end in their semantic tag ("Prediabetes (finding)"); the chart shows the name alone. */
const SNOMED_TAG =
  / \((disorder|finding|procedure|substance|situation|observable entity|qualifier value|regime\/therapy|morphologic abnormality|body structure|event|product|medicinal product|organism|physical object)\)$/;
export const conceptName = (cc: Json | undefined): string | undefined => {
  const name: string | undefined = cc?.text || cc?.coding?.find((c: Json) => c.display)?.display || cc?.coding?.[0]?.code;
  return name && cc?.coding?.some((c: Json) => c.system === SYSTEMS.snomed) ? name.replace(SNOMED_TAG, '') : name;
};

/** Other systems' vitals units, converted to those Tidewell records them in (VITAL_CODES). */
const TO_RECORDED_UNITS: Record<string, Record<string, (v: number) => number>> = {
  height: { cm: (v) => v / 2.54, m: (v) => (v * 100) / 2.54 },
  headCircumference: { cm: (v) => v / 2.54 },
  weight: { kg: (v) => v * 2.2046226218, g: (v) => v * 0.0022046226218 },
  temp: { Cel: (v) => (v * 9) / 5 + 32 },
};

/** A vital's value in the unit Tidewell records it in; a converted one to a tenth, as the vitals form takes it. */
export function vitalValue(key: string, q: Json | undefined): number | undefined {
  if (typeof q?.value !== 'number' || !Number.isFinite(q.value)) return undefined;
  const recorded = VITAL_CODES[key]!;
  const unit = q.code ?? q.unit;
  if (unit === recorded.ucum || (!q.code && q.unit === recorded.unit)) return q.value;
  const convert = TO_RECORDED_UNITS[key]?.[String(unit)];
  return convert ? Math.round(convert(q.value) * 10) / 10 : undefined;
}

const PERIOD_UNITS: Record<string, string> = { s: 'second', min: 'minute', h: 'hour', d: 'day', wk: 'week', mo: 'month', a: 'year' };
const TIMES: Record<number, string> = { 1: 'once', 2: 'twice' };

/** The sig as written, else read from a structured dosage as other systems write it ("1 dose twice a day"). */
export function sigOf(dosage: Json | undefined): string | undefined {
  if (!dosage) return undefined;
  if (typeof dosage.text === 'string' && dosage.text.trim()) return dosage.text;
  const dose = dosage.doseAndRate?.[0]?.doseQuantity;
  const repeat = dosage.timing?.repeat;
  const unit = PERIOD_UNITS[String(repeat?.periodUnit)];
  const parts = [
    typeof dose?.value === 'number' ? `${dose.value} ${dose.unit ?? (dose.value === 1 ? 'dose' : 'doses')}` : undefined,
    unit && Number.isInteger(repeat.frequency) && typeof repeat.period === 'number'
      ? repeat.period === 1
        ? `${TIMES[repeat.frequency] ?? `${repeat.frequency} times`} a ${unit}`
        : `${repeat.frequency === 1 ? '' : `${TIMES[repeat.frequency] ?? `${repeat.frequency} times`} `}every ${repeat.period} ${unit}s`
      : undefined,
    dosage.asNeededBoolean === true ? 'as needed' : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : undefined;
}
