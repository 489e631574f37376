import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHART_MESSAGES as M } from '../../shared/chart/constants.js';
import { api, patientAuditTrail, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

let provider: string;
let employee: string;
const P = '/v1/patients/pat-0003';
const OTHER = '/v1/patients/pat-0004';

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  employee = await signIn('employee@demo.tidewell.local');
});

async function auditActions(patientId: string, entity: string): Promise<string[]> {
  return (await patientAuditTrail(patientId)).filter((i) => i.entity === entity).map((i) => i.action as string);
}

describe('allergies', () => {
  it('creates, lists pinned first, pins, updates, deletes, with audit', async () => {
    const a = await api(provider, 'POST', `${P}/allergies`, {
      name: 'Penicillin',
      severity: 'severe',
      startDate: '01/02/2020',
      pinned: 0,
      formSource: 'intake',
      unknown: 1,
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: 'Penicillin',
      severity: 'severe',
      startDate: '2020-01-02',
      pinned: false,
      active: true,
      formSource: 'intake',
      patientId: 'pat-0003',
    });
    expect(a.body).not.toHaveProperty('unknown');
    const b = await api(employee, 'POST', `${P}/allergies`, { name: 'Latex', pinned: 1, icd10CodeId: 'Z9181' });
    expect(b.body).toMatchObject({ pinned: true, icd10Code: { ident: 'Z9181', code: 'Z91.81' } });
    const list = await api(provider, 'GET', `${P}/allergies`);
    const names = list.body.items.map((i: { name: string }) => i.name);
    expect(names.indexOf('Latex')).toBeLessThan(names.indexOf('Penicillin'));

    const pinned = await api(provider, 'PUT', `${P}/allergies/${a.body.ident}`, { pinned: 1 });
    expect(pinned.body).toMatchObject({ pinned: true, name: 'Penicillin', severity: 'severe', createdAt: a.body.createdAt });
    const resolved = await api(provider, 'PUT', `${P}/allergies/${a.body.ident}`, { active: false, pinned: 0 });
    expect(resolved.body).toMatchObject({ active: false, pinned: false });

    expect((await api(provider, 'PUT', `${OTHER}/allergies/${a.body.ident}`, { pinned: 1 })).status).toBe(404);
    expect((await api(provider, 'DELETE', `${OTHER}/allergies/${a.body.ident}`)).status).toBe(404);
    expect((await api(provider, 'DELETE', `${P}/allergies/${a.body.ident}`)).status).toBe(204);
    expect((await api(provider, 'DELETE', `${P}/allergies/${a.body.ident}`)).status).toBe(404);
    expect(await auditActions('pat-0003', 'allergy')).toEqual(expect.arrayContaining(['create', 'list', 'update', 'delete']));
  });

  it('validates with the spec messages and names wrong types', async () => {
    const missing = await api(provider, 'POST', `${P}/allergies`, { startDate: '13/45/2020', endDate: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors).toEqual({ name: 'Name is required', startDate: M.startDateInvalid, endDate: M.endDateInvalid });
    const range = await api(provider, 'POST', `${P}/allergies`, { name: 'x', startDate: '2021-01-01', endDate: '2020-01-01' });
    expect(range.body.fieldErrors).toEqual({ endDate: M.endBeforeStart });
    const type = await api(provider, 'POST', `${P}/allergies`, { name: 'x', pinned: 'maybe' });
    expect(type.status).toBe(400);
    expect(type.body.message).toContain('pinned');
  });

  it('404 for a missing patient, 403 for no_access', async () => {
    expect((await api(provider, 'GET', '/v1/patients/pat-nope/allergies')).status).toBe(404);
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    expect((await api(noAccess, 'GET', `${P}/allergies`)).status).toBe(403);
    expect((await api(noAccess, 'POST', `${P}/diagnoses`, { name: 'x', pinned: 0 })).status).toBe(403);
  });
});

describe('diagnoses (medical conditions)', () => {
  it('stores month dates and applies every §5 rule', async () => {
    const ok = await api(provider, 'POST', `${P}/diagnoses`, { name: 'Type 2 diabetes', date: '03/2019', pinned: 0, icd10CodeId: 'E119' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      date: '2019-03',
      active: true,
      icd10Code: { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
    });
    const cases: [object, Record<string, string>][] = [
      [{ pinned: 0 }, { name: 'Name is required' }],
      [{ name: 'x' }, { pinned: 'Pinned is required' }],
      [{ name: 'x', pinned: 0, date: '13/2019' }, { date: M.dateInvalid }],
      [{ name: 'x', pinned: 0, date: '01/2999' }, { date: M.dateInFuture }],
      [{ name: 'x', pinned: 0, endDate: 'soon' }, { endDate: M.endDateInvalid }],
      [{ name: 'x', pinned: 0, endDate: '01/2999' }, { endDate: M.endDateInFuture }],
      [{ name: 'x', pinned: 0, date: '05/2020', endDate: '01/2020' }, { endDate: M.endBeforeStart }],
    ];
    for (const [body, fieldErrors] of cases) {
      const res = await api(provider, 'POST', `${P}/diagnoses`, body);
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual(fieldErrors);
    }
    const bad = await api(provider, 'PUT', `${P}/diagnoses/${ok.body.ident}`, { endDate: '01/2018' });
    expect(bad.body.fieldErrors).toEqual({ endDate: M.endBeforeStart });
    const medical = await api(provider, 'GET', '/v2/patients/pat-0003/medical');
    expect(medical.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ ident: ok.body.ident, name: 'Type 2 diabetes', date: '2019-03' })]));
  });
});

describe('medications', () => {
  it('moves to history and back; v2 add from a note applies the prescription defaults', async () => {
    const m = await api(provider, 'POST', `${P}/medications`, { productName: 'Lisinopril', strength: '10', strengthUOM: 'mg', start: '2024-01-01' });
    expect(m.body).toMatchObject({ status: 'Active', pinned: false });
    expect((await api(provider, 'PUT', `${P}/medications/${m.body.ident}`, { status: 'Complete' })).body.status).toBe('Complete');
    expect((await api(provider, 'PUT', `${P}/medications/${m.body.ident}`, { status: 'Active' })).body).toMatchObject({
      status: 'Active',
      productName: 'Lisinopril',
    });
    const bad = await api(provider, 'POST', `${P}/medications`, { start: 'x', end: '02/30/2020' });
    expect(bad.body.fieldErrors).toEqual({ productName: 'Name is required', start: M.startDateInvalid, end: M.endDateInvalid });
    const v2 = await api(provider, 'POST', '/v2/patients/pat-0003/medication', {
      patientId: 'pat-0003',
      data: { productName: 'Amoxicillin', noteId: 'n1', start: '2025-03-01', daysOfTreatment: 10 },
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ routeOfAdministration: 'OR', transmissionMethod: 'History', end: '2025-03-11' });
    const ff = await api(provider, 'POST', `${P}/freeform-medications`, { name: 'Fish oil' });
    expect((await api(provider, 'GET', `${P}/freeform-medications`)).body.items.map((i: { name: string }) => i.name)).toContain('Fish oil');
    expect((await api(provider, 'DELETE', `${P}/freeform-medications/${ff.body.ident}`)).status).toBe(204);
  });

  it('renames a freeform medication; an empty name, another patient or a deleted one is refused', async () => {
    const ff = await api(provider, 'POST', `${P}/freeform-medications`, { name: 'Vitamin D' });
    expect(ff.status).toBe(201);
    const renamed = await api(employee, 'PUT', `${P}/freeform-medications/${ff.body.ident}`, { name: '  Vitamin D3 2000 IU  ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ ident: ff.body.ident, name: 'Vitamin D3 2000 IU', createdAt: ff.body.createdAt });
    const listed = (await api(provider, 'GET', `${P}/freeform-medications`)).body.items.filter((i: { ident: string }) => i.ident === ff.body.ident);
    expect(listed.map((i: { name: string }) => i.name)).toEqual(['Vitamin D3 2000 IU']);
    const empty = await api(provider, 'PUT', `${P}/freeform-medications/${ff.body.ident}`, { name: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors).toEqual({ name: 'Name is required' });
    expect((await api(provider, 'PUT', `${OTHER}/freeform-medications/${ff.body.ident}`, { name: 'x' })).status).toBe(404);
    expect((await api(provider, 'DELETE', `${P}/freeform-medications/${ff.body.ident}`)).status).toBe(204);
    const gone = await api(provider, 'PUT', `${P}/freeform-medications/${ff.body.ident}`, { name: 'Vitamin D3' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Freeform medication not found');
    expect(await auditActions('pat-0003', 'freeform_medication')).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
  });
});

describe('vaccines', () => {
  it('groups doses, orders by date then dose number, pin-all with update[] only', async () => {
    const created = await api(provider, 'POST', `${P}/vaccines/groups`, {
      group: { name: 'Hepatitis B series' },
      create: [
        { name: 'Hep B', cvxCode: '43', date: '2024-03-01', doseNumber: 2 },
        { name: 'Hep B', cvxCode: '43', date: '2024-01-01', doseNumber: 1 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.items.map((v: { doseNumber: number }) => v.doseNumber)).toEqual([1, 2]);
    const groupId = created.body.group.ident;
    const pinAll = await api(provider, 'PUT', `${P}/vaccines/groups/${groupId}`, {
      update: created.body.items.map((v: { ident: string }) => ({ ident: v.ident, pinned: 1 })),
    });
    expect(pinAll.body.items.every((v: { pinned: boolean; grouping: { name: string } }) => v.pinned && v.grouping.name === 'Hepatitis B series')).toBe(true);
    const list = await api(provider, 'GET', `${P}/vaccines`);
    const group = list.body.groups.find((g: { groupId?: string }) => g.groupId === groupId);
    expect(group.items.map((v: { date: string }) => v.date)).toEqual(['2024-01-01', '2024-03-01']);
    const bad = await api(provider, 'POST', `${P}/vaccines`, { name: 'Tdap', date: '2/31/2024' });
    expect(bad.body.fieldErrors).toEqual({ date: M.dateInvalid });
    const renameEmpty = await api(provider, 'PUT', `${P}/vaccines/groups/${groupId}`, { group: { name: '' } });
    expect(renameEmpty.body.fieldErrors).toEqual({ 'group.name': M.groupNameInvalid });
    expect((await api(provider, 'DELETE', `${OTHER}/vaccines/groups/${groupId}`)).status).toBe(404);
    expect((await api(provider, 'DELETE', `${P}/vaccines/groups/${groupId}`)).status).toBe(204);
    expect((await api(provider, 'GET', `${P}/vaccines`)).body.items.filter((v: { grouping?: { ident: string } }) => v.grouping?.ident === groupId)).toEqual([]);
  });
});

describe('surgeries, family history, social history, general', () => {
  it('surgery and family history rules', async () => {
    expect((await api(provider, 'POST', `${P}/surgeries`, { date: 'x' })).body.fieldErrors).toEqual({ name: 'Name is required', date: M.dateInvalid });
    const s = await api(provider, 'POST', `${P}/surgeries`, { name: 'Appendectomy', date: '05/06/2010', description: 'Laparoscopic' });
    expect(s.body).toMatchObject({ date: '2010-05-06' });
    expect((await api(provider, 'POST', `${P}/family-history`, { family: ['FTH'] })).body.fieldErrors).toEqual({ diagnosis: 'Diagnosis is required' });
    const f = await api(provider, 'POST', `${P}/family-history`, { diagnosis: 'Hypertension', family: ['FTH', 'MTH'], pinned: 1, icd10CodeId: 'I10' });
    expect(f.body).toMatchObject({ family: ['FTH', 'MTH'], pinned: true, icd10Code: { code: 'I10' } });
    expect((await api(provider, 'GET', '/v2/patients/pat-0003/history/family')).body.items[0].ident).toBe(f.body.ident);
  });

  it('social history appends an answer only when it changed, newest first', async () => {
    const s = await api(provider, 'POST', `${P}/social-history`, { question: 'Tobacco use', answer: 'Never' });
    expect(s.body.answers).toHaveLength(1);
    const same = await api(provider, 'PUT', `${P}/social-history/${s.body.ident}`, { answer: 'Never' });
    expect(same.body.answers).toHaveLength(1);
    const changed = await api(provider, 'PUT', `${P}/social-history/${s.body.ident}`, { answers: [{ answer: 'Former smoker' }, ...same.body.answers] });
    expect(changed.body.answers.map((a: { answer: string }) => a.answer)).toEqual(['Former smoker', 'Never']);
    const social = await api(provider, 'GET', '/v2/patients/pat-0003/history/social');
    expect(social.body.items.find((i: { ident: string }) => i.ident === s.body.ident).answers[0].answer).toBe('Former smoker');
    expect((await api(provider, 'POST', `${P}/social-history`, { endDate: 'x' })).body.fieldErrors).toEqual({
      question: 'Question is required',
      endDate: M.endDateInvalid,
    });
  });

  it('general items and groups ("Group Name is not valid")', async () => {
    expect((await api(provider, 'POST', `${P}/general`, { startDate: 'x' })).body.fieldErrors).toEqual({
      name: 'Name is required',
      startDate: M.startDateInvalid,
    });
    const g = await api(provider, 'POST', `${P}/general-groups`, { name: 'Lifestyle', items: [{ name: 'Runs 3x/week', pinned: 1 }] });
    expect(g.status).toBe(201);
    expect(g.body.items[0]).toMatchObject({ name: 'Runs 3x/week', pinned: true, grouping: { name: 'Lifestyle' } });
    const empty = await api(provider, 'PUT', `${P}/general-groups/${g.body.ident}`, { name: '' });
    expect(empty.body.fieldErrors).toEqual({ name: M.groupNameInvalid });
    const info = await api(provider, 'GET', '/v2/patients/pat-0003/general-info');
    expect(info.body.groups.find((x: { ident: string }) => x.ident === g.body.ident).items).toHaveLength(1);
    expect((await api(provider, 'DELETE', `${P}/general-groups/${g.body.ident}`)).status).toBe(204);
  });

  it('keeps chart items under the patient key (one Query per section)', async () => {
    const { client, tableName } = tableClient();
    const out = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :s)',
        ExpressionAttributeValues: { ':p': stackEndpoints().practiceId, ':s': 'PATIENT#pat-0003#SURGERY#' },
      }),
    );
    expect(out.Items!.length).toBeGreaterThan(0);
  });
});
