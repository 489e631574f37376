import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fax, FaxList, type FaxDirection, type FaxStatus } from '../../../../../shared/faxes/fax-schema.js';
import { FaxNumberList } from '../../../../../shared/faxes/fax-responses.js';
import { apiRequest } from '../../../lib/api-client.js';

export interface FaxListParams {
  direction?: FaxDirection;
  status?: FaxStatus;
  query?: string;
}

export const faxKeys = { all: ['faxes'] as const, list: (p: FaxListParams) => ['faxes', 'list', p] as const, numbers: ['faxes', 'numbers'] as const };

/** Stretches of the faxes one filtered list reads at most (each a bounded server read); a narrower search finds older faxes. */
const SEARCH_STRETCHES = 10;

export function useFaxList(params: FaxListParams) {
  return useQuery({
    queryKey: faxKeys.list(params),
    queryFn: async ({ signal }) => {
      const query = { direction: params.direction, status: params.status, query: params.query || undefined };
      let list = await apiRequest({ path: '/v1/faxes', query, signal }, FaxList);
      // A filtered list answers the matches of one stretch of faxes: look on until a page is found.
      for (let n = 1; list.nextToken && list.faxes.length < list.limit && n < SEARCH_STRETCHES; n++) {
        const more = await apiRequest({ path: '/v1/faxes', query: { ...query, nextToken: list.nextToken }, signal }, FaxList);
        list = { ...more, faxes: [...list.faxes, ...more.faxes].slice(0, list.limit), total: list.total + more.total };
      }
      return list;
    },
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

export function useFaxNumbers() {
  return useQuery({
    queryKey: faxKeys.numbers,
    queryFn: async ({ signal }) => (await apiRequest({ path: '/v1/faxes/fax-numbers', signal }, FaxNumberList)).faxNumbers,
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
