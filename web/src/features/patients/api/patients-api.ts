import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AccessHistoryPageAnswer } from '../../../../../shared/audit/access-history-responses.js';
import type * as z from '../../../../../shared/zod.js';
import { PATIENT_PAGE_SIZE } from '../../../../../shared/constants/patients.js';
import { Patient, PatientListResponse, type PatientInput } from '../../../../../shared/patients/patient-schema.js';
import { apiRequest } from '../../../lib/api-client.js';
import { patientKeys, type PatientListParams } from '../../../lib/patients.js';

export async function fetchPatients(params: PatientListParams, signal?: AbortSignal): Promise<PatientListResponse> {
  return apiRequest(
    {
      path: '/v1/patients',
      query: {
        limit: PATIENT_PAGE_SIZE,
        offset: params.offset,
        status: params.archived ? 'DELETED' : undefined,
        q: params.q || undefined,
      },
      signal,
    },
    PatientListResponse,
  );
}

export function usePatientList(params: PatientListParams) {
  return useQuery({
    queryKey: patientKeys.list(params),
    queryFn: ({ signal }) => fetchPatients(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSavePatient(patientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PatientInput) =>
      await apiRequest(
        patientId
          ? { method: 'PUT', path: `/v1/patients/${encodeURIComponent(patientId)}`, body: input }
          : { method: 'POST', path: '/v1/patients', body: input },
        Patient,
      ),
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      void queryClient.invalidateQueries({ queryKey: patientKeys.lists() });
    },
  });
}

export function useArchivePatient(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => await apiRequest({ method: 'POST', path: `/v1/patients/${encodeURIComponent(patientId)}/archive` }, Patient),
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      void queryClient.invalidateQueries({ queryKey: patientKeys.lists() });
    },
  });
}

export type AccessHistoryPage = z.output<typeof AccessHistoryPageAnswer>;

/** One page of a patient's access history, newest first; `before` is the previous page's `next`. */
export function fetchAccessHistoryPage(patientId: string, before: string, signal?: AbortSignal): Promise<AccessHistoryPage> {
  return apiRequest({ path: `/v1/patients/${encodeURIComponent(patientId)}/access-history`, query: before ? { before } : {}, signal }, AccessHistoryPageAnswer);
}
