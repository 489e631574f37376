import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { patientKeys } from './patients.js';

describe('patient query keys', () => {
  it('refreshes every list and picker search, and no patient detail, when a save invalidates the lists', async () => {
    const client = new QueryClient();
    client.setQueryData(patientKeys.list({ q: '', offset: 0, archived: false }), 'list');
    client.setQueryData(patientKeys.search('grace', 10), 'picker');
    client.setQueryData(patientKeys.search('grace', 8), 'palette');
    client.setQueryData(patientKeys.detail('pat-0011'), 'detail');
    await client.invalidateQueries({ queryKey: patientKeys.lists() });
    const stale = client
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => q.state.data);
    expect(stale.sort()).toEqual(['list', 'palette', 'picker']);
  });
});
