import { SYSTEMS } from '../fhir-core.js';
import { planLabObservation } from '../import-labs.js';
import type { BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { categories, dateOnly, day, instant, noteOf, text } from './read.js';
import { planVitalSign, VITAL_LOINCS } from './vital-signs.js';

const NOT_MEASURED: Record<string, string> = {
  'entered-in-error': 'It was entered in error',
  cancelled: 'It was cancelled',
  registered: 'It has no result yet',
};
/** Smoking status is social history, whatever category a system files it under (Synthea: survey). */
const SOCIAL_LOINCS = new Set(['72166-2', '11367-0', '8663-7', '74013-4']);

/** A social history answer as written: coded, text, yes/no, or a number with its unit. */
function answerOf(r: Json): string | undefined {
  if (typeof r.valueString === 'string' && r.valueString.trim()) return r.valueString;
  if (r.valueCodeableConcept) return text(r.valueCodeableConcept);
  if (typeof r.valueBoolean === 'boolean') return String(r.valueBoolean);
  if (typeof r.valueInteger === 'number') return String(r.valueInteger);
  const q = r.valueQuantity;
  if (typeof q?.value === 'number') return `${q.value}${(q.unit ?? q.code) ? ` ${q.unit ?? q.code}` : ''}`;
  return undefined;
}

function planSocialHistory(r: Json, notMeasured: string | undefined): PlanOutcome {
  const question = text(r.code) ?? 'Social history';
  const answer = answerOf(r);
  if (notMeasured) return { summary: `Social history: ${question}`, reason: notMeasured };
  if (answer === undefined) return { summary: `Social history: ${question}`, reason: 'It has no answer' };
  const at = instant(r.issued ?? r.effectiveDateTime) ?? dateOnly(r.effectiveDateTime ?? r.issued);
  return {
    summary: `Social history: ${question}: ${answer}`,
    planned: { kind: 'social', question, answer, at, startDate: day(r.effectivePeriod?.start), endDate: day(r.effectivePeriod?.end), notes: noteOf(r) },
  };
}

/** An Observation is social history, a vital sign, a growth percentile or a lab result, in that order; anything else is left out. */
export function planObservation(r: Json, bundle: BundleContext): PlanOutcome {
  const cats = categories(r);
  const loincs = ((r.code?.coding as Json[] | undefined) ?? []).filter((c) => c.system === SYSTEMS.loinc).map((c) => String(c.code));
  const notMeasured = NOT_MEASURED[r.status];
  if (cats.includes('social-history') || loincs.some((c) => SOCIAL_LOINCS.has(c))) return planSocialHistory(r, notMeasured);
  if (cats.includes('vital-signs') || (!cats.includes('laboratory') && loincs.some((c) => VITAL_LOINCS.has(c)))) return planVitalSign(r, loincs, notMeasured);
  if (cats.includes('exam') && text(r.code) === 'Growth percentile' && typeof r.valueQuantity?.value === 'number' && r.effectiveDateTime) {
    return {
      summary: `Vitals on ${day(r.effectiveDateTime)}: Growth percentile`,
      planned: { kind: 'vital', at: r.effectiveDateTime, values: { growthPercentile: r.valueQuantity.value } },
    };
  }
  if (cats.includes('laboratory')) return planLabObservation(r, bundle.labs);
  return { summary: `Observation: ${text(r.code) ?? ''}`, reason: 'Not a kind Tidewell keeps' };
}
