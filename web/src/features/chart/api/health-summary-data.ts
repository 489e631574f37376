import type { QueryClient } from '@tanstack/react-query';
import { featureGatesQuery, sectionListQuery, type SectionKey } from './chart-api.js';
import { freeformMedicationsQuery } from './freeform-medications-api.js';
import { vaccinesQuery } from './vaccines-api.js';

/** The sections whose lists the health summary's cards read (vaccines have a query of their own). */
const LISTED_SECTIONS: readonly SectionKey[] = ['general', 'allergies', 'medications', 'diagnoses', 'surgeries', 'familyHistory', 'socialHistory'];

/** Resolves in a task of its own, after what is already queued. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Asks at once for everything the health summary's first render reads, and settles when every
 * answer is in (a failed one included: its card shows the failure). The summary then mounts with
 * its data, in one render React can interrupt, instead of ten answers each re-rendering it in a
 * task of its own, and the lists no longer wait for the summary's code and the practice's flags.
 * Each request starts in a task of its own: a call to the API's origin costs the main thread a few
 * milliseconds (30 ms for the ten in one task of a chart's trace), long enough together to delay a
 * tap on a phone.
 */
export async function prefetchHealthSummary(queryClient: QueryClient, patientId: string): Promise<void> {
  const asks: (() => Promise<void>)[] = [
    () => queryClient.prefetchQuery(featureGatesQuery),
    ...LISTED_SECTIONS.map((section) => () => queryClient.prefetchQuery(sectionListQuery(patientId, section))),
    () => queryClient.prefetchQuery(vaccinesQuery(patientId)),
    () => queryClient.prefetchQuery(freeformMedicationsQuery(patientId)),
  ];
  await Promise.all(asks.map((ask) => nextTask().then(ask)));
}
