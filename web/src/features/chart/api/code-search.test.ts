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

const { searchDrugs } = await import('./code-search.js');
const lisinopril = { ident: 's1', productName: 'Lisinopril', genericName: 'lisinopril', strength: '10', strengthUOM: 'mg', dosageForm: 'TABLET', route: 'ORAL' };

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
    answers = [{ items: [], total: 0 }, { items: [lisinopril], total: 1 }];
    expect(await searchDrugs('Zestril')).toEqual([lisinopril]);
    expect(calls[1]).toMatchObject({ path: '/v1/nationaldrugcodes/search', query: { searchTerm: 'Zestril', searchBy: 'NAME' } });
  });

  it('reads a failed search as an empty list', async () => {
    answers = [new Error('Network response was not ok'), new Error('Network response was not ok')];
    expect(await searchDrugs('metf')).toEqual([]);
    expect(calls).toHaveLength(2);
  });
});
