import { DIAGNOSES, GENERAL } from '../../chart/sections.js';
import { SYSTEMS } from '../fhir-core.js';
import { nameOfRef, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { active, categories, codeIn, day, month, noteOf, NOT_SO, outsideCodings, text, verification } from './read.js';

/** A Condition becomes a diagnosis, or general information when it is a health concern; not one refuted or entered in error. */
export function planCondition(r: Json, bundle: BundleContext): PlanOutcome {
  const name = text(r.code) ?? 'Condition';
  const icd10CodeId = codeIn(r.code, SYSTEMS.icd10cm);
  const health = categories(r).includes('health-concern');
  const summary = health ? `General information: ${name}` : `Diagnosis: ${name}${icd10CodeId ? ` (${icd10CodeId})` : ''}`;
  const notSo = NOT_SO[verification(r) ?? ''];
  if (notSo) return { summary, reason: `The condition was ${notSo}` };
  const recorder = nameOfRef(r.recorder ?? r.asserter, bundle);
  if (health) {
    return {
      summary,
      planned: {
        kind: 'section',
        section: 'general',
        spec: GENERAL,
        input: {
          name,
          details: [noteOf(r), recorder ? `Recorded by ${recorder}` : undefined].filter(Boolean).join('\n') || undefined,
          startDate: day(r.onsetDateTime),
          endDate: day(r.abatementDateTime),
          icd10CodeId,
        },
      },
    };
  }
  // A diagnosis is dated by month; the day the source gives is kept in its description.
  const days = [
    day(r.onsetDateTime) ? `Onset on ${day(r.onsetDateTime)}` : undefined,
    day(r.abatementDateTime) ? `Ended on ${day(r.abatementDateTime)}` : undefined,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    summary,
    planned: {
      kind: 'section',
      section: 'diagnoses',
      spec: DIAGNOSES,
      input: {
        name,
        description: [noteOf(r), days, recorder ? `Recorded by ${recorder}` : undefined].filter(Boolean).join('\n') || undefined,
        date: month(r.onsetDateTime),
        endDate: month(r.abatementDateTime),
        pinned: false,
        active: active(r),
        icd10CodeId,
        codings: outsideCodings(r.code),
      },
    },
  };
}
