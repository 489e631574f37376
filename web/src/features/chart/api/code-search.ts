import { useQuery } from '@tanstack/react-query';
import { CODE_SEARCH_DEBOUNCE_MS, DRUG_SEARCH_MIN_LENGTH_EXCLUSIVE, ICD10_PAGE_SIZE, ICD10_SEARCH_MIN_LENGTH } from '../../../../../shared/chart/constants.js';
import type { CodeSetSource, DrugProduct } from '../../../../../shared/chart/code-sets.js';
import { AllergenSearchAnswer, DrugSearchAnswer, Icd10SearchAnswer, VaccineCodeSearchAnswer } from '../../../../../shared/chart/code-set-responses.js';
import { apiRequest } from '../../../lib/api-client.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { chartKeys } from './chart-api.js';

/**
 * Said under a code search while it answers from the built-in starter list: how to get the full
 * official set (README, "Official code sets"). Nothing once the official release is loaded.
 */
export function starterNotice(set: 'icd10' | 'drugs' | 'vaccines', source: CodeSetSource | undefined): string | null {
  if (source?.kind !== 'starter') return null;
  switch (set) {
    case 'icd10':
      return `Searching the ${source.label.toLowerCase()}; load the official ICD-10-CM release to search every code (see README).`;
    case 'drugs':
      return 'Searching the built-in list of common generic drugs (no NDC numbers); load the FDA NDC directory to search every product with its NDC (see README).';
    case 'vaccines':
      return 'Searching the built-in common CVX codes; load the CDC CVX and MVX files for the full list (see README).';
  }
}

/** Spec §9: ICD-10 (and CVX) search starts at 3 characters. */
export const icd10SearchStarts = (keyword: string) => keyword.trim().length >= ICD10_SEARCH_MIN_LENGTH;
/** Spec §2: medication search starts once the text is longer than 3 characters. */
export const drugSearchStarts = (text: string) => text.trim().length > DRUG_SEARCH_MIN_LENGTH_EXCLUSIVE;

/** Spec §9: ICD-10 search starts at 3 characters, debounced 500 ms, pages of 25. */
export function useIcd10Search(text: string) {
  const keyword = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = icd10SearchStarts(keyword);
  const query = useQuery({
    queryKey: chartKeys.icd10(keyword),
    queryFn: async ({ signal }) =>
      apiRequest(
        {
          path: '/v1/icd-10-codes',
          query: { keyword, limit: ICD10_PAGE_SIZE, offset: 0 },
          signal,
        },
        Icd10SearchAnswer,
      ),
    enabled,
    staleTime: 300_000,
  });
  return {
    codes: enabled ? (query.data?.items ?? []) : [],
    total: query.data?.total ?? 0,
    source: query.data?.source,
    isFetching: enabled && query.isFetching,
  };
}

/**
 * Spec §2: medication search starts once the text is longer than 3 characters, debounced
 * 500 ms; it searches by the typed text and, when that finds nothing, searches again by name.
 * Failures are logged and read as an empty list (spec §8).
 */
export async function searchDrugs(text: string, signal?: AbortSignal): Promise<DrugProduct[]> {
  return (await searchDrugsWithSource(text, signal)).items;
}

/** The same search, also saying which list answered (the starter list or the FDA directory). */
export async function searchDrugsWithSource(text: string, signal?: AbortSignal): Promise<{ items: DrugProduct[]; source?: CodeSetSource }> {
  const attempt = async (request: Parameters<typeof apiRequest>[0]) => {
    try {
      const body = await apiRequest({ ...request, signal }, DrugSearchAnswer);
      return { items: body.items, source: body.source };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      console.error('Drug search failed', error);
      return { items: [] as DrugProduct[], source: undefined };
    }
  };
  const first = await attempt({ path: '/v2/nationaldrugcodes/search', query: { searchText: text } });
  if (first.items.length) return first;
  const second = await attempt({ path: '/v1/nationaldrugcodes/search', query: { searchTerm: text, searchBy: 'NAME' } });
  return { items: second.items, source: second.source ?? first.source };
}

export function useDrugSearch(text: string) {
  const term = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = drugSearchStarts(term);
  const query = useQuery({
    queryKey: chartKeys.drugs(term),
    queryFn: ({ signal }) => searchDrugsWithSource(term, signal),
    enabled,
    staleTime: 300_000,
  });
  return { drugs: enabled ? (query.data?.items ?? []) : [], source: query.data?.source, isFetching: enabled && query.isFetching };
}

/** CVX vaccine lookup, with the same 3-character start and 500 ms debounce as the ICD-10 search. */
export function useVaccineCodeSearch(text: string) {
  const keyword = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = icd10SearchStarts(keyword);
  const query = useQuery({
    queryKey: ['vaccine-codes', keyword],
    queryFn: ({ signal }) => apiRequest({ path: '/v1/vaccine-codes', query: { keyword, limit: ICD10_PAGE_SIZE }, signal }, VaccineCodeSearchAnswer),
    enabled,
    staleTime: 300_000,
  });
  return { codes: enabled ? (query.data?.items ?? []) : [], source: query.data?.source, isFetching: enabled && query.isFetching };
}

/** Allergen search (allergy form): drug classes, substances and ingredients, from 3 characters, debounced. */
export function useAllergenSearch(text: string) {
  const keyword = useDebouncedValue(text.trim(), CODE_SEARCH_DEBOUNCE_MS);
  const enabled = icd10SearchStarts(keyword);
  const query = useQuery({
    queryKey: ['allergens', keyword],
    queryFn: ({ signal }) => apiRequest({ path: '/v1/allergens', query: { keyword }, signal }, AllergenSearchAnswer),
    enabled,
    staleTime: 300_000,
  });
  return { allergens: enabled ? (query.data?.items ?? []) : [], isFetching: enabled && query.isFetching };
}
