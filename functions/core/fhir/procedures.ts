import { clean, fhirDate, outsideCodings, sourceIdentifier, stableUuid } from './fhir-core.js';
import type { ChartMapper } from './model.js';

/** Surgical history: US Core Procedure needs status, code, subject and when it was performed. */
export const procedures: ChartMapper = {
  kind: 'surgery',
  map: (src, ctx) =>
    src.surgeries.map((s) =>
      clean({
        resourceType: 'Procedure',
        id: stableUuid('Procedure', src.practiceId, s.ident),
        identifier: [sourceIdentifier(src.practiceId, 'surgery', s.ident)],
        status: 'completed',
        category: { coding: [{ system: 'http://snomed.info/sct', code: '387713003', display: 'Surgical procedure' }] },
        code: { coding: outsideCodings(s.codings), text: s.name },
        subject: ctx.patientRef,
        performedDateTime: fhirDate(s.date),
        performedString: fhirDate(s.date) ? undefined : 'unknown',
        note: s.description ? [{ text: s.description }] : [],
      }),
    ),
};
