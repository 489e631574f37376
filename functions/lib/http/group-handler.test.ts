import { beforeAll, describe, expect, it } from 'vitest';
import { invoke, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { groupHandler, route } from './group-handler.js';

const KEYS = ['GET /v1/open', 'GET /v1/admin-only'] as const;
const handler = groupHandler(KEYS, {
  'GET /v1/open': route({ run: async ({ auth }) => ({ role: auth.role }) }),
  'GET /v1/admin-only': route({ minRole: 'admin', run: async () => ({ ok: true }) }),
});

describe('route roles', () => {
  beforeAll(() => {
    process.env.PRACTICE_ID = TEST_PRACTICE;
    process.env.TIDEWELL_LOG = 'silent';
  });

  it('lets every practice member through a route that names no role', async () => {
    for (const group of ['employee', 'provider', 'admin']) {
      expect(await invoke(handler, { routeKey: 'GET /v1/open', groups: [group] })).toEqual({ status: 200, body: { role: group } });
    }
  });

  it('refuses no_access everywhere and lower roles where a route names one', async () => {
    expect((await invoke(handler, { routeKey: 'GET /v1/open', groups: ['no_access'] })).status).toBe(403);
    expect(await invoke(handler, { routeKey: 'GET /v1/admin-only', groups: ['provider'] })).toEqual({ status: 403, body: { message: 'You do not have permission to do this.', reason: 'role' } });
    expect((await invoke(handler, { routeKey: 'GET /v1/admin-only', groups: ['admin'] })).status).toBe(200);
  });
});
