import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from '../../shared/constants/feature-flags.js';
import { api, signIn } from '../support/local-stack.js';

let employee: string;
beforeAll(async () => {
  employee = await signIn('employee@demo.tidewell.local');
});

describe('practice API', () => {
  it('returns the practice metadata', async () => {
    const res = await api(employee, 'GET', '/v1/practices/metadata');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ practiceId: 'prc_demo_tidewell', practiceName: 'Tidewell Demo Clinic', productDeactivatedAt: null });
    expect(res.body).not.toHaveProperty('sk');
  });

  it("returns the caller's own user", async () => {
    const provider = await signIn('provider@demo.tidewell.local');
    const res = await api(provider, 'GET', '/v1/practices/users/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      emailAddress: 'provider@demo.tidewell.local',
      permissionGroup: 'provider',
      userStatus: 'active',
      veradigmUserType: 'Provider',
    });
    expect(res.body.npiNumber).toMatch(/^\d{10}$/);
  });

  it('lists every user of the practice', async () => {
    const res = await api(employee, 'GET', '/v1/practices/users');
    expect(res.status).toBe(200);
    const emails = res.body.map((u: { emailAddress: string }) => u.emailAddress);
    expect(emails).toEqual(
      expect.arrayContaining(['admin@demo.tidewell.local', 'provider@demo.tidewell.local', 'employee@demo.tidewell.local', 'noaccess@demo.tidewell.local']),
    );
    expect(res.body.every((u: { userId: string }) => typeof u.userId === 'string' && u.userId.length > 0)).toBe(true);
  });

  it('answers every feature gate as a boolean', async () => {
    const res = await api(employee, 'GET', '/v1/practices/feature-gates');
    expect(res.status).toBe(200);
    for (const flag of FEATURE_FLAGS) expect(typeof res.body.flags[flag]).toBe('boolean');
  });

  it('refuses no_access and a missing token', async () => {
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    expect((await api(noAccess, 'GET', '/v1/practices/metadata')).status).toBe(403);
    expect((await api(noAccess, 'GET', '/v1/practices/users/me')).status).toBe(403);
    expect((await api(null, 'GET', '/v1/practices/feature-gates')).status).toBe(401);
  });
});
