import { beforeAll, describe, expect, it } from 'vitest';
import { CHART_MESSAGES } from '../../shared/chart/constants.js';
import { api, signIn } from '../support/local-stack.js';

/*
 * Two users editing one chart item: different fields both survive, a stale version is refused
 * with 409 and the stored version, and nothing is overwritten unseen.
 */
let provider: string;
let employee: string;
const P = '/v1/patients/pat-0005';

beforeAll(async () => {
  [provider, employee] = await Promise.all([signIn('provider@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
});

describe('chart item versions', () => {
  it('keeps both of two concurrent edits of different fields of one allergy', async () => {
    const created = await api(provider, 'POST', `${P}/allergies`, { name: 'Peanuts', description: 'hives' });
    expect(created.body.version).toBe(1);
    const id = created.body.ident;
    // Both users send only the field they changed, at the same moment.
    const [a, b] = await Promise.all([
      api(provider, 'PUT', `${P}/allergies/${id}`, { severity: 'severe' }),
      api(employee, 'PUT', `${P}/allergies/${id}`, { description: 'anaphylaxis' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const list = await api(provider, 'GET', `${P}/allergies`);
    const stored = list.body.items.find((i: { ident: string }) => i.ident === id);
    expect(stored).toMatchObject({ name: 'Peanuts', severity: 'severe', description: 'anaphylaxis', version: 3 });
  });

  it('refuses a stale version with 409, the message and the stored item', async () => {
    const created = await api(provider, 'POST', `${P}/diagnoses`, { name: 'Asthma', pinned: 0 });
    const id = created.body.ident;
    const first = await api(provider, 'PUT', `${P}/diagnoses/${id}`, { description: 'mild', version: 1 });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(2);
    const stale = await api(employee, 'PUT', `${P}/diagnoses/${id}`, { description: 'severe', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(CHART_MESSAGES.staleVersion);
    expect(stale.body.version).toBe(2);
    expect(stale.body.item).toMatchObject({ description: 'mild' });
    const list = await api(provider, 'GET', `${P}/diagnoses`);
    expect(list.body.items.find((i: { ident: string }) => i.ident === id)).toMatchObject({ description: 'mild', version: 2 });
  });

  it('settles a race on one version with one 200 and 409s', async () => {
    const created = await api(provider, 'POST', `${P}/surgeries`, { name: 'Appendectomy' });
    const id = created.body.ident;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api(i % 2 ? provider : employee, 'PUT', `${P}/surgeries/${id}`, { description: `edit ${i}`, version: 1 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('versions every section: medications, family and social history, general, vaccines, freeform medications', async () => {
    const cases: [string, object, object][] = [
      ['medications', { productName: 'Metformin' }, { strength: '500' }],
      ['family-history', { diagnosis: 'Diabetes' }, { details: 'mother' }],
      ['social-history', { question: 'Smoking?', answer: 'No' }, { notes: 'never' }],
      ['general', { name: 'Blood type' }, { details: 'O+' }],
      ['vaccines', { name: 'Influenza' }, { lotNumber: 'L1' }],
      ['freeform-medications', { name: 'Fish oil' }, { name: 'Fish oil 1 g' }],
    ];
    for (const [path, body, change] of cases) {
      const created = await api(provider, 'POST', `${P}/${path}`, body);
      expect(created.status, path).toBe(201);
      expect(created.body.version, path).toBe(1);
      const ok = await api(provider, 'PUT', `${P}/${path}/${created.body.ident}`, { ...change, version: 1 });
      expect(ok.status, path).toBe(200);
      expect(ok.body.version, path).toBe(2);
      const stale = await api(employee, 'PUT', `${P}/${path}/${created.body.ident}`, { ...change, version: 1 });
      expect(stale.status, path).toBe(409);
    }
  });

  it('refuses a stale dose edit inside a vaccine group and a stale general group rename', async () => {
    const group = await api(provider, 'POST', `${P}/vaccines/groups`, { group: { name: 'Hep B' }, create: [{ name: 'Hep B 1' }] });
    expect(group.status).toBe(201);
    const dose = group.body.items[0];
    expect(dose.version).toBe(1);
    const edit = await api(provider, 'PUT', `${P}/vaccines/groups/${group.body.group.ident}`, { update: [{ ident: dose.ident, lotNumber: 'A', version: 1 }] });
    expect(edit.status).toBe(200);
    const stale = await api(employee, 'PUT', `${P}/vaccines/groups/${group.body.group.ident}`, { update: [{ ident: dose.ident, lotNumber: 'B', version: 1 }] });
    expect(stale.status).toBe(409);

    const general = await api(provider, 'POST', `${P}/general-groups`, { name: 'Labs', items: [{ name: 'A1c' }] });
    expect(general.status).toBe(201);
    expect(general.body.version).toBe(1);
    const renamed = await api(provider, 'PUT', `${P}/general-groups/${general.body.ident}`, { name: 'Lab values', version: 1 });
    expect(renamed.status).toBe(200);
    const staleRename = await api(employee, 'PUT', `${P}/general-groups/${general.body.ident}`, { name: 'Old', version: 1 });
    expect(staleRename.status).toBe(409);
  });
});
