import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fax, FaxList, type FaxDirection, type FaxStatus } from '../../../../../shared/faxes/fax-schema.js';
import { apiRequest } from '../../../lib/api-client.js';

export interface FaxListParams {
  direction?: FaxDirection;
  status?: FaxStatus;
  query?: string;
}

export const faxKeys = { all: ['faxes'] as const, list: (p: FaxListParams) => ['faxes', 'list', p] as const, numbers: ['faxes', 'numbers'] as const };

export function useFaxList(params: FaxListParams) {
  return useQuery({
    queryKey: faxKeys.list(params),
    queryFn: async ({ signal }) =>
      await apiRequest({ path: '/v1/faxes', query: { direction: params.direction, status: params.status, query: params.query || undefined }, signal }, FaxList),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

export function useFaxNumbers() {
  return useQuery({
    queryKey: faxKeys.numbers,
    queryFn: async ({ signal }) => (await apiRequest<{ faxNumbers: string[] }>({ path: '/v1/faxes/fax-numbers', signal })).faxNumbers,
  });
}

export const faxesApi = {
  send: async (body: {
    patientId: string;
    noteId?: string | null;
    to: string;
    from?: string;
    recipientName?: string;
    coverText?: string;
    fileKeys?: string[];
  }) => await apiRequest({ method: 'POST', path: '/v1/faxes', body }, Fax),
  resend: async (ident: string) => await apiRequest({ method: 'PUT', path: `/v1/faxes/${encodeURIComponent(ident)}/resend` }, Fax),
};
