import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '../../../lib/api-client.js';

const calls: ApiRequest[] = [];
let answers: (unknown | Error)[] = [];
vi.mock('../../../lib/api-client.js', () => ({
  apiRequest: async (request: ApiRequest) => {
    calls.push(request);
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  },
}));

const { drugSearchStarts, icd10SearchStarts, searchDrugs, searchDrugsWithSource, starterNotice } = await import('./code-search.js');
const { CODE_SEARCH_DEBOUNCE_MS, ICD10_PAGE_SIZE } = await import('../../../../../shared/chart/constants.js');
const lisinopril = {
  ident: 's1',
  productName: 'Lisinopril',
  genericName: 'lisinopril',
  strength: '10',
  strengthUOM: 'mg',
  dosageForm: 'TABLET',
  route: 'ORAL',
};

describe('drug search (spec §2)', () => {
  beforeEach(() => {
    calls.length = 0;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('searches by the typed text first', async () => {
    answers = [{ items: [lisinopril], total: 1 }];
    expect(await searchDrugs('lisin')).toEqual([lisinopril]);
    expect(calls.map((c) => [c.path, c.query])).toEqual([['/v2/nationaldrugcodes/search', { searchText: 'lisin' }]]);
  });

  it('falls back to a search by name when the first finds nothing', async () => {
    answers = [
      { items: [], total: 0 },
      { items: [lisinopril], total: 1 },
    ];
    expect(await searchDrugs('Zestril')).toEqual([lisinopril]);
    expect(calls[1]).toMatchObject({ path: '/v1/nationaldrugcodes/search', query: { searchTerm: 'Zestril', searchBy: 'NAME' } });
  });

  it('reads a failed search as an empty list', async () => {
    answers = [new Error('Network response was not ok'), new Error('Network response was not ok')];
    expect(await searchDrugs('metf')).toEqual([]);
    expect(calls).toHaveLength(2);
  });
});

describe('starter code sets (issue: say in the UI how to load the full set)', () => {
  const starter = { kind: 'starter' as const, label: 'Built-in primary-care ICD-10-CM starter set', count: 200 };
  const official = { kind: 'official' as const, label: 'ICD-10-CM FY2027', count: 74_879 };

  it('says how to load each full set while a starter list answers, nothing once loaded', () => {
    for (const set of ['icd10', 'drugs', 'vaccines'] as const) {
      expect(starterNotice(set, starter)).toMatch(/load the .+ \(see README\)\.$/);
      expect(starterNotice(set, official)).toBeNull();
      expect(starterNotice(set, undefined)).toBeNull();
    }
    expect(starterNotice('drugs', starter)).toContain('FDA NDC directory');
    expect(starterNotice('vaccines', starter)).toContain('CDC CVX and MVX');
  });

  it('the drug search reports which list answered, also after the fallback', async () => {
    calls.length = 0;
    answers = [
      { items: [], total: 0, source: starter },
      { items: [lisinopril], total: 1, source: starter },
    ];
    expect(await searchDrugsWithSource('Zestril')).toEqual({ items: [lisinopril], source: starter });
    answers = [{ items: [lisinopril], total: 1, source: official }];
    expect((await searchDrugsWithSource('lisin')).source).toEqual(official);
  });
});

describe('when code searches start (spec §2, §9)', () => {
  it('ICD-10 from 3 characters, the drug search only above 3, both debounced 500 ms, ICD-10 pages of 25', () => {
    expect(['E1', ' E1 ', 'E11', 'e119'].map(icd10SearchStarts)).toEqual([false, false, true, true]);
    expect(['lis', ' lis ', 'lisi', 'lisinopril'].map(drugSearchStarts)).toEqual([false, false, true, true]);
    expect(CODE_SEARCH_DEBOUNCE_MS).toBe(500);
    expect(ICD10_PAGE_SIZE).toBe(25);
  });
});
