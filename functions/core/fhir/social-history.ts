import { clean, fhirDate, fhirInstant, sourceIdentifier, stableUuid, SYSTEMS } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** Each answer to a social-history question is one social-history Observation (the question is its code). */
export const socialHistory: ChartMapper = {
  kind: 'social-history',
  map: (src, ctx) =>
    src.socialHistory.flatMap((q) =>
      (q.answers ?? []).map((a) =>
        clean({
          resourceType: 'Observation',
          id: stableUuid('Observation', src.practiceId, 'social', q.ident, a.ident),
          identifier: [sourceIdentifier(src.practiceId, 'social-history', `${q.ident}/${a.ident}`)],
          status: 'final',
          category: [{ coding: [{ system: SYSTEMS.obsCategory, code: 'social-history', display: 'Social History' }] }],
          code: { text: q.question },
          subject: ctx.patientRef,
          effectivePeriod: q.startDate || q.endDate ? { start: fhirDate(q.startDate), end: fhirDate(q.endDate) } : undefined,
          effectiveDateTime: q.startDate || q.endDate ? undefined : fhirInstant(a.timestamp),
          issued: fhirInstant(a.timestamp),
          valueString: a.answer,
          note: q.notes ? [{ text: q.notes }] : [],
        }),
      ),
    ),
};
