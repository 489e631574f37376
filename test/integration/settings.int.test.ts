import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, signIn, stackEndpoints } from '../support/local-stack.js';

let admin: string;
let provider: string;
let employee: string;

beforeAll(async () => {
  [admin, provider, employee] = await Promise.all(
    ['admin@demo.tidewell.local', 'provider@demo.tidewell.local', 'employee@demo.tidewell.local'].map((e) => signIn(e)),
  );
});

describe('practice settings', () => {
  it('lets an admin change the metadata, phones with owners, logo and deactivation, and restores them', async () => {
    const before = (await api(admin, 'GET', '/v1/practices/metadata')).body;
    const adminId = (await api(admin, 'GET', '/v1/practices/users/me')).body.userId;
    try {
      const res = await api(admin, 'PUT', '/v1/practices/metadata', {
        practiceName: 'Tidewell Demo Clinic East',
        phoneNumber: '(555) 201-0000',
        additionalPhoneNumbers: [{ phoneNumber: '555 201 0001', owner: adminId }],
        base64Logo: 'data:image/png;base64,iVBORw0KGgo=',
        productDeactivatedAt: '2030-01-01T00:00:00.000Z',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        practiceName: 'Tidewell Demo Clinic East',
        phoneNumber: '+15552010000',
        additionalPhoneNumbers: [{ phoneNumber: '+15552010001', owner: adminId }],
        base64Logo: 'data:image/png;base64,iVBORw0KGgo=',
        productDeactivatedAt: '2030-01-01T00:00:00.000Z',
      });
      expect((await api(employee, 'GET', '/v1/practices/metadata')).body.productDeactivatedAt).toBe('2030-01-01T00:00:00.000Z');
      const bad = await api(admin, 'PUT', '/v1/practices/metadata', { practiceName: ' ', base64Logo: 'not an image' });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toMatchObject({
        practiceName: 'Practice name is required',
        base64Logo: 'Logo must be a base64 image (PNG, JPEG, GIF, SVG or WebP)',
      });
    } finally {
      await api(admin, 'PUT', '/v1/practices/metadata', {
        practiceName: before.practiceName,
        phoneNumber: before.phoneNumber ?? null,
        additionalPhoneNumbers: before.additionalPhoneNumbers,
        base64Logo: before.base64Logo ?? null,
        productDeactivatedAt: before.productDeactivatedAt,
      });
    }
    expect((await api(admin, 'GET', '/v1/practices/metadata')).body).toEqual(before);
  });

  it('refuses every settings write to providers and employees', async () => {
    for (const token of [provider, employee]) {
      for (const [path, body] of [
        ['/v1/practices/metadata', { practiceName: 'Taken over' }],
        ['/v1/practices/feature-gates', { flags: { ai_streaming: true } }],
        ['/v1/practices/users/someone', { permissionGroup: 'admin' }],
      ] as const) {
        const res = await api(token, 'PUT', path, body);
        expect(res.status, path).toBe(403);
      }
    }
    expect((await api(admin, 'GET', '/v1/practices/metadata')).body.practiceName).not.toBe('Taken over');
  });

  it('lets an admin edit a team member, read one by practice and id, and not demote themselves', async () => {
    await createTestUser({ email: 'settings-member@demo.tidewell.local', group: 'employee', firstName: 'Sam', lastName: 'Member' });
    const users = (await api(admin, 'GET', '/v1/practices/users')).body as { userId: string; emailAddress: string }[];
    const member = users.find((u) => u.emailAddress === 'settings-member@demo.tidewell.local')!;
    const res = await api(admin, 'PUT', `/v1/practices/users/${member.userId}`, {
      permissionGroup: 'provider',
      npiNumber: '1234567893',
      veradigmUserType: 'PA',
      userStatus: 'active',
    });
    expect(res.body).toMatchObject({
      userId: member.userId,
      permissionGroup: 'provider',
      npiNumber: '1234567893',
      veradigmUserType: 'PA',
      userStatus: 'active',
    });
    const { practiceId } = stackEndpoints();
    expect((await api(employee, 'GET', `/v1/practices/${practiceId}/users/${member.userId}`)).body).toMatchObject({
      name: 'Sam Member',
      permissionGroup: 'provider',
    });
    expect((await api(employee, 'GET', `/v1/practices/prc_elsewhere/users/${member.userId}`)).status).toBe(404);
    expect((await api(admin, 'PUT', `/v1/practices/users/${member.userId}`, { npiNumber: '12' })).body.fieldErrors).toEqual({
      npiNumber: 'NPI number must have 10 digits',
    });
    expect((await api(admin, 'PUT', '/v1/practices/users/no-such-user', { userStatus: 'deleted' })).status).toBe(404);
    const adminId = (await api(admin, 'GET', '/v1/practices/users/me')).body.userId;
    const demote = await api(admin, 'PUT', `/v1/practices/users/${adminId}`, { permissionGroup: 'employee' });
    expect(demote.status).toBe(400);
    expect(demote.body.message).toBe('You cannot remove your own admin permission.');
  });

  it('lets an admin set feature flags, keeping the others', async () => {
    const res = await api(admin, 'PUT', '/v1/practices/feature-gates', { flags: { settings_probe: true } });
    expect(res.body.flags).toMatchObject({ settings_probe: true, tidewell_copilot: expect.any(Boolean) });
    expect((await api(employee, 'GET', '/v1/practices/feature-gates')).body.flags.settings_probe).toBe(true);
    await api(admin, 'PUT', '/v1/practices/feature-gates', { flags: { settings_probe: false } });
    expect((await api(employee, 'GET', '/v1/practices/feature-gates')).body.flags.settings_probe).toBe(false);
  });

  it('keeps a dashboard layout per user in the saved order', async () => {
    const initial = (await api(provider, 'GET', '/v1/practices/users/me/dashboard')).body;
    expect(initial.widgets.map((w: { id: string }) => w.id)).toEqual([
      'providers-day',
      'my-open-tasks',
      'unread-messages',
      'my-drafts',
      'reminders-due-today',
      'results-to-review',
    ]);
    const saved = await api(provider, 'PUT', '/v1/practices/users/me/dashboard', {
      widgets: [
        { id: 'reminders-due-today', visible: true },
        { id: 'my-open-tasks', visible: false },
      ],
    });
    expect(saved.body.widgets).toEqual([
      { id: 'reminders-due-today', visible: true },
      { id: 'my-open-tasks', visible: false },
      { id: 'providers-day', visible: true },
      { id: 'unread-messages', visible: true },
      { id: 'my-drafts', visible: true },
      { id: 'results-to-review', visible: true },
    ]);
    expect((await api(provider, 'GET', '/v1/practices/users/me/dashboard')).body).toEqual(saved.body);
    expect((await api(employee, 'GET', '/v1/practices/users/me/dashboard')).body.widgets[0].id).toBe('providers-day');
    expect((await api(provider, 'PUT', '/v1/practices/users/me/dashboard', { widgets: [{ id: 'weather', visible: true }] })).status).toBe(400);
    await api(provider, 'PUT', '/v1/practices/users/me/dashboard', initial);
  });
});
