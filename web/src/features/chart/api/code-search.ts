import { useQuery } from '@tanstack/react-query';
import {
  CODE_SEARCH_DEBOUNCE_MS,
  DRUG_SEARCH_MIN_LENGTH_EXCLUSIVE,
  ICD10_PAGE_SIZE,
  ICD10_SEARCH_MIN_LENGTH,
} from '../../../../../shared/chart/constants.js';
import type { DrugProduct, DrugSearchResponse, Icd10SearchResponse, VaccineCodeSearchResponse } from '../../../../../shared/chart/code-sets.js';
import { apiRequest } from '../../../lib/api-client.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { chartKeys } from './chart-api.js';

/** Spec §9: ICD-10 search starts at 3 characters, debounced 500 ms, pages of 25. */
export function useIcd10Search(text: string) {
  const keyword = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = keyword.length >= ICD10_SEARCH_MIN_LENGTH;
  const query = useQuery({
    queryKey: chartKeys.icd10(keyword),
    queryFn: async ({ signal }) =>
      apiRequest<Icd10SearchResponse>({
        path: '/v1/icd-10-codes',
        query: { keyword, limit: ICD10_PAGE_SIZE, offset: 0 },
        signal,
      }),
    enabled,
    staleTime: 300_000,
  });
  return { codes: enabled ? (query.data?.items ?? []) : [], total: query.data?.total ?? 0, source: query.data?.source, isFetching: enabled && query.isFetching };
}

/**
 * Spec §2: medication search starts once the text is longer than 3 characters, debounced
 * 500 ms; it searches by the typed text and, when that finds nothing, searches again by name.
 * Failures are logged and read as an empty list (spec §8).
 */
export async function searchDrugs(text: string, signal?: AbortSignal): Promise<DrugProduct[]> {
  const attempt = async (request: Parameters<typeof apiRequest>[0]) => {
    try {
      return (await apiRequest<DrugSearchResponse>({ ...request, signal })).items ?? [];
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      console.error('Drug search failed', error);
      return [];
    }
  };
  const first = await attempt({ path: '/v2/nationaldrugcodes/search', query: { searchText: text } });
  if (first.length) return first;
  return attempt({ path: '/v1/nationaldrugcodes/search', query: { searchTerm: text, searchBy: 'NAME' } });
}

export function useDrugSearch(text: string) {
  const term = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = term.length > DRUG_SEARCH_MIN_LENGTH_EXCLUSIVE;
  const query = useQuery({
    queryKey: chartKeys.drugs(term),
    queryFn: ({ signal }) => searchDrugs(term, signal),
    enabled,
    staleTime: 300_000,
  });
  return { drugs: enabled ? (query.data ?? []) : [], isFetching: enabled && query.isFetching };
}

/** CVX vaccine lookup, with the same 3-character start and 500 ms debounce as the ICD-10 search. */
export function useVaccineCodeSearch(text: string) {
  const keyword = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = keyword.length >= ICD10_SEARCH_MIN_LENGTH;
  const query = useQuery({
    queryKey: ['vaccine-codes', keyword],
    queryFn: ({ signal }) => apiRequest<VaccineCodeSearchResponse>({ path: '/v1/vaccine-codes', query: { keyword, limit: ICD10_PAGE_SIZE }, signal }),
    enabled,
    staleTime: 300_000,
  });
  return { codes: enabled ? (query.data?.items ?? []) : [], isFetching: enabled && query.isFetching };
}
