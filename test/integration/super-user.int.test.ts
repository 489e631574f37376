import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestUser, signIn, stackEndpoints, tableClient, practiceAuditEntries } from '../support/local-stack.js';

const SUPER = 'super@demo.tidewell.local';

let superUser: string;
let employee: string;
let superId: string;

beforeAll(async () => {
  [superUser, employee] = await Promise.all([signIn(SUPER), signIn('employee@demo.tidewell.local')]);
  superId = (await api(superUser, 'GET', '/v1/practices/users/me')).body.userId;
});

async function auditEntriesSince(since: string) {
  return practiceAuditEntries({}, `AUDIT#${since}`);
}

describe('super user', () => {
  it("is named 'Super User', acts as admin and has no User record in the practice", async () => {
    const me = await api(superUser, 'GET', '/v1/practices/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'Super User', permissionGroup: 'admin', superUser: true, emailAddress: SUPER, userStatus: 'active' });
    expect(superId).toMatch(/^[0-9a-f-]{36}$/);

    const { client, tableName } = tableClient();
    const record = await client.send(new GetCommand({ TableName: tableName, Key: { practiceId: stackEndpoints().practiceId, sk: `USER#${superId}` } }));
    expect(record.Item).toBeUndefined();
    // The team list is the practice's own staff: the super user is not in it.
    const team = (await api(superUser, 'GET', '/v1/practices/users')).body as { userId: string }[];
    expect(team.length).toBeGreaterThan(0);
    expect(team.map((u) => u.userId)).not.toContain(superId);

    // Staff are not super users.
    expect((await api(employee, 'GET', '/v1/practices/users/me')).body).toMatchObject({ superUser: false, name: 'Jordan Ellis' });
  });

  it('makes the admin-only settings writes, audited as the super user', async () => {
    const since = new Date().toISOString();
    const before = (await api(superUser, 'GET', '/v1/practices/metadata')).body;
    const flagsBefore = (await api(superUser, 'GET', '/v1/practices/feature-gates')).body.flags;
    const employeeId = (await api(employee, 'GET', '/v1/practices/users/me')).body.userId as string;
    const employeeBefore = (await api(superUser, 'GET', `/v1/practices/${stackEndpoints().practiceId}/users/${employeeId}`)).body;
    try {
      const renamed = await api(superUser, 'PUT', '/v1/practices/metadata', { practiceName: 'Tidewell Demo Clinic (support)' });
      expect(renamed.status).toBe(200);
      expect((await api(employee, 'GET', '/v1/practices/metadata')).body.practiceName).toBe('Tidewell Demo Clinic (support)');

      const flags = await api(superUser, 'PUT', '/v1/practices/feature-gates', { flags: { trending_labs: !flagsBefore.trending_labs } });
      expect(flags.status).toBe(200);
      expect(flags.body.flags.trending_labs).toBe(!flagsBefore.trending_labs);

      const type = await api(superUser, 'PUT', `/v1/practices/users/${employeeId}`, { veradigmUserType: 'POBNoReview' });
      expect(type.status).toBe(200);
      expect(type.body.veradigmUserType).toBe('POBNoReview');

      // The same writes stay refused to an employee.
      expect((await api(employee, 'PUT', '/v1/practices/metadata', { practiceName: 'Taken over' })).status).toBe(403);

      const audit = await auditEntriesSince(since);
      const mine = audit.filter((a) => a.actorUserId === superId);
      expect(mine.map((a) => a.entity).sort()).toEqual(['feature-gates', 'practice', 'user']);
      expect(mine.every((a) => a.actorRole === 'admin' && a.actorSuperUser === true && a.actorEmail === SUPER)).toBe(true);
    } finally {
      await api(superUser, 'PUT', '/v1/practices/metadata', { practiceName: before.practiceName });
      await api(superUser, 'PUT', '/v1/practices/feature-gates', { flags: { trending_labs: flagsBefore.trending_labs } });
      await api(superUser, 'PUT', `/v1/practices/users/${employeeId}`, { veradigmUserType: employeeBefore.veradigmUserType });
    }
    expect((await api(superUser, 'GET', '/v1/practices/metadata')).body).toEqual(before);
  });

  it("is refused by a practice that is not the one in the super user's token", async () => {
    const foreign = await createTestUser({ email: `super-elsewhere-${Date.now()}@other.test`, group: 'super_user', practiceId: 'prc_somewhere_else' });
    const res = await api(foreign, 'GET', '/v1/practices/users/me');
    expect(res.status).toBe(403);
    expect((await api(foreign, 'PUT', '/v1/practices/metadata', { practiceName: 'Taken over' })).status).toBe(403);
  });
});
