import type { QueryClient } from '@tanstack/react-query';
import { upcomingVisitsQuery } from '../features/calendar/api/calendar-api.js';
import { patientQuery } from '../lib/patients.js';

/**
 * Asks for what the chart's header shows: the patient, and the next visits, which on a phone are
 * the header's largest text and the last of its first screen to paint. A small module of its own,
 * so a chart landed on asks for them with the session's first answers, ahead of the chart's code
 * and of its panels' answers. Settles when both answers are in (or failed: prefetching never throws).
 */
export async function prefetchChartHeader(queryClient: QueryClient, patientId: string): Promise<void> {
  await Promise.all([queryClient.prefetchQuery(patientQuery(patientId)), queryClient.prefetchQuery(upcomingVisitsQuery(patientId))]);
}
