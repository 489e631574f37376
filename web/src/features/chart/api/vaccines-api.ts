import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { groupVaccines } from '../../../../../shared/chart/ordering.js';
import type { VaccineGroupView } from '../../../../../shared/chart/sections.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { VaccineGroupAnswer, VaccineItem, VaccineListAnswer } from '../../../../../shared/chart/section-responses.js';
import type * as z from '../../../../../shared/zod.js';
import { apiRequest } from '../../../lib/api-client.js';
import { isApiError } from '../../../lib/api-error.js';
import { pinnedWire } from '../chart-lists.js';
import { chartKeys, sectionPath } from './chart-api.js';

export type StoredVaccine = z.output<typeof VaccineItem>;
export type VaccineSeries = VaccineGroupView & { items: StoredVaccine[] };

const seriesPath = (patientId: string, groupId?: string) => `${sectionPath(patientId, 'vaccines')}/groups${groupId ? `/${encodeURIComponent(groupId)}` : ''}`;

export async function fetchVaccines(patientId: string, signal?: AbortSignal) {
  const { items } = await apiRequest({ path: sectionPath(patientId, 'vaccines'), signal }, VaccineListAnswer);
  // Grouped and ordered by the shared rule whatever order the list arrived in.
  return { items, groups: groupVaccines(items) as VaccineSeries[] };
}

export const vaccinesQuery = (patientId: string) =>
  queryOptions({
    queryKey: chartKeys.section(patientId, 'vaccines'),
    queryFn: ({ signal }) => fetchVaccines(patientId, signal),
  });

export function useVaccines(patientId: string) {
  return useQuery(vaccinesQuery(patientId));
}

/** The latest saved list, read past the cache: what a stale form compares against after a 409. */
export function useFetchLatestVaccines(patientId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.fetchQuery({ queryKey: chartKeys.section(patientId, 'vaccines'), queryFn: () => fetchVaccines(patientId), staleTime: 0 });
}

/** Every vaccine change refetches the list; the returned function does that for calls outside these hooks. */
export function useRefetchVaccines(patientId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: chartKeys.section(patientId, 'vaccines') });
}

export interface SaveVaccine {
  ident?: string;
  /** The series a new dose goes into ("Add dose"); otherwise one of the same vaccine name, else a new one. */
  group?: VaccineGroupView;
  body: Record<string, unknown>;
}

export function useSaveVaccine(patientId: string, groups: readonly VaccineGroupView[]) {
  const refetch = useRefetchVaccines(patientId);
  return useMutation({
    // The saved dose, or the series it went into: the list is read again either way.
    mutationFn: ({ ident, group, body }: SaveVaccine): Promise<unknown> => {
      if (ident) return apiRequest({ method: 'PUT', path: sectionPath(patientId, 'vaccines', ident), body }, VaccineItem);
      // New doses are created through the groups call (spec §7): into the dose's series when there is
      // one (chosen with "Add dose", or a series of the same vaccine name), else as a new series.
      const series =
        group ??
        groups.find(
          (g) =>
            g.groupId &&
            g.name.trim().toLowerCase() ===
              String(body.name ?? '')
                .trim()
                .toLowerCase(),
        );
      if (series?.groupId) return apiRequest({ method: 'PUT', path: seriesPath(patientId, series.groupId), body: { create: [body] } }, VaccineGroupAnswer);
      return apiRequest({ method: 'POST', path: seriesPath(patientId), body: { create: [body] } }, VaccineGroupAnswer);
    },
    onSettled: refetch,
  });
}

/** The pin-all variant of the group update sends update[] only (spec §7). */
export function usePinVaccineSeries(patientId: string) {
  const refetch = useRefetchVaccines(patientId);
  return useMutation({
    mutationFn: ({ group, pinned }: { group: VaccineSeries; pinned: boolean }) =>
      apiRequest(
        {
          method: 'PUT',
          path: seriesPath(patientId, group.groupId ?? ''),
          body: { update: group.items.map((dose) => ({ ident: dose.ident, pinned: pinnedWire(pinned) })) },
        },
        VaccineGroupAnswer,
      ),
    onError: (error) => console.error('Pinning vaccine series failed', error),
    onSettled: refetch,
  });
}

export function useDeleteVaccine(patientId: string) {
  const refetch = useRefetchVaccines(patientId);
  return useMutation({
    mutationFn: (ident: string) => apiRequest({ method: 'DELETE', path: sectionPath(patientId, 'vaccines', ident) }, NoContent),
    onSettled: refetch,
  });
}

export function renameVaccineSeries(patientId: string, groupId: string, name: string) {
  return apiRequest({ method: 'PUT', path: seriesPath(patientId, groupId), body: { group: { name } } }, VaccineGroupAnswer);
}

/** A series deleted elsewhere is already gone; the refetch shows that. */
export function deleteVaccineSeries(patientId: string, groupId: string) {
  return apiRequest({ method: 'DELETE', path: seriesPath(patientId, groupId) }, NoContent).catch((error: unknown) =>
    isApiError(error, 404) ? undefined : console.error('Deleting vaccine series failed', error),
  );
}
