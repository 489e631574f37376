import { beforeAll, describe, expect, it } from 'vitest';
import { api, patientAuditTrail, signIn } from '../support/local-stack.js';

/*
 * The same journey through every chart section's HTTP API: create (formSource and note links kept),
 * pinned-first list order with pinned sent as 0/1, update, another patient's path answers 404,
 * no_access answers 403, delete, and an audit entry (who, what, when, patient) for each write.
 */

const PATIENT = 'pat-0011';
const OTHER = 'pat-0012';
const P = `/v1/patients/${PATIENT}`;
const O = `/v1/patients/${OTHER}`;

let provider: string;
let noAccess: string;

beforeAll(async () => {
  provider = await signIn('provider@demo.tidewell.local');
  noAccess = await signIn('noaccess@demo.tidewell.local');
});

interface SectionCase {
  path: string;
  entity: string;
  /** A valid create body for an item called `name`. */
  body: (name: string) => Record<string, unknown>;
  /** The field holding the name in the response. */
  nameField: string;
  /** A change the PUT makes, and what the stored item shows for it. */
  change: Record<string, unknown>;
  changed: Record<string, unknown>;
  /** Sections with pin, formSource and note links (freeform medications have a name only). */
  full: boolean;
  /** Vaccines list doses by date and dose; their pinned-first order is that of the groups. */
  grouped?: boolean;
}

const link = (dataType: string) => [{ dataType, dataId: 'pending', linkId: `link-${dataType}`, noteId: 'note-int-1' }];

const SECTIONS: SectionCase[] = [
  {
    path: 'allergies',
    entity: 'allergy',
    body: (name) => ({ name }),
    nameField: 'name',
    change: { severity: 'mild' },
    changed: { severity: 'mild' },
    full: true,
  },
  {
    path: 'diagnoses',
    entity: 'diagnosis',
    body: (name) => ({ name, pinned: 0 }),
    nameField: 'name',
    change: { date: '02/2021' },
    changed: { date: '2021-02' },
    full: true,
  },
  {
    path: 'medications',
    entity: 'medication',
    body: (name) => ({ productName: name }),
    nameField: 'productName',
    change: { status: 'Complete' },
    changed: { status: 'Complete' },
    full: true,
  },
  {
    path: 'surgeries',
    entity: 'surgery',
    body: (name) => ({ name }),
    nameField: 'name',
    change: { date: '05/06/2010' },
    changed: { date: '2010-05-06' },
    full: true,
  },
  {
    path: 'family-history',
    entity: 'family_history',
    body: (name) => ({ diagnosis: name }),
    nameField: 'diagnosis',
    change: { family: ['MTH'] },
    changed: { family: ['MTH'] },
    full: true,
  },
  {
    path: 'social-history',
    entity: 'social_history',
    body: (name) => ({ question: name, answer: 'Never' }),
    nameField: 'question',
    change: { notes: 'Asked at intake' },
    changed: { notes: 'Asked at intake' },
    full: true,
  },
  {
    path: 'general',
    entity: 'general_info',
    body: (name) => ({ name }),
    nameField: 'name',
    change: { details: 'Weekly' },
    changed: { details: 'Weekly' },
    full: true,
  },
  {
    path: 'vaccines',
    entity: 'vaccine',
    body: (name) => ({ name }),
    nameField: 'name',
    change: { lotNumber: 'L123' },
    changed: { lotNumber: 'L123' },
    full: true,
    grouped: true,
  },
  {
    path: 'freeform-medications',
    entity: 'freeform_medication',
    body: (name) => ({ name }),
    nameField: 'name',
    change: { name: 'Renamed' },
    changed: { name: 'Renamed' },
    full: false,
  },
];

async function auditOf(patientId: string, entity: string, entityId: string) {
  return (await patientAuditTrail(patientId)).filter((i) => i.entity === entity && i.entityId === entityId);
}

type Item = Record<string, unknown> & { ident: string };

async function list(path: string): Promise<Item[]> {
  const res = await api(provider, 'GET', path);
  expect(res.status).toBe(200);
  return res.body.items as Item[];
}

describe.each(SECTIONS)('$path through the HTTP API', (s) => {
  it('creates, orders pinned first, updates, refuses other patients and no_access, deletes, audits', async () => {
    const extra = s.full ? { formSource: 'intake-form-7', noteDataLinks: link('task') } : {};
    const a = await api(provider, 'POST', `${P}/${s.path}`, { ...s.body('Alpha item'), ...extra, ...(s.full ? { pinned: 0 } : {}) });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ [s.nameField]: 'Alpha item', patientId: PATIENT, ...extra });
    if (s.full) expect(a.body.pinned).toBe(false);
    const b = await api(provider, 'POST', `${P}/${s.path}`, { ...s.body('Zulu item'), ...(s.full ? { pinned: 0 } : {}) });
    expect(b.status).toBe(201);
    const ours = (items: Item[]) => items.filter((i) => i.ident === a.body.ident || i.ident === b.body.ident).map((i) => i[s.nameField]);

    if (s.full) {
      // Pinning the other item (sent as 1) moves it to the top; unpinning (0) gives the place back.
      const pinned = await api(provider, 'PUT', `${P}/${s.path}/${b.body.ident}`, { pinned: 1 });
      expect(pinned.status).toBe(200);
      expect(pinned.body).toMatchObject({ pinned: true, [s.nameField]: 'Zulu item', createdAt: b.body.createdAt });
      if (s.grouped) {
        const groups = (await api(provider, 'GET', `${P}/${s.path}`)).body.groups as { name: string }[];
        const names = groups.map((g) => g.name).filter((n) => n === 'Alpha item' || n === 'Zulu item');
        expect(names).toEqual(['Zulu item', 'Alpha item']);
      } else {
        expect(ours(await list(`${P}/${s.path}`))).toEqual(['Zulu item', 'Alpha item']);
      }
      await api(provider, 'PUT', `${P}/${s.path}/${b.body.ident}`, { pinned: 0 });
      const pinA = await api(provider, 'PUT', `${P}/${s.path}/${a.body.ident}`, { pinned: 1 });
      expect(pinA.body.pinned).toBe(true);
      if (s.grouped) {
        const groups = (await api(provider, 'GET', `${P}/${s.path}`)).body.groups as { name: string }[];
        expect(groups.map((g) => g.name).filter((n) => n === 'Alpha item' || n === 'Zulu item')).toEqual(['Alpha item', 'Zulu item']);
      } else {
        expect(ours(await list(`${P}/${s.path}`))).toEqual(['Alpha item', 'Zulu item']);
      }
    }

    // A partial update keeps what it does not name: the name, the intake source and the note links.
    const updated = await api(provider, 'PUT', `${P}/${s.path}/${a.body.ident}`, s.change);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ ...s.changed, ...extra, ident: a.body.ident, createdAt: a.body.createdAt });
    const afterUpdate = (await list(`${P}/${s.path}`)).find((i) => i.ident === a.body.ident);
    expect(afterUpdate).toMatchObject({ ...s.changed, ...extra });

    // Another patient's path never reaches this patient's item.
    expect((await api(provider, 'PUT', `${O}/${s.path}/${a.body.ident}`, s.change)).status).toBe(404);
    expect((await api(provider, 'DELETE', `${O}/${s.path}/${a.body.ident}`)).status).toBe(404);
    expect((await list(`${O}/${s.path}`)).some((i) => i.ident === a.body.ident)).toBe(false);

    // no_access is refused every call of the section.
    expect((await api(noAccess, 'GET', `${P}/${s.path}`)).status).toBe(403);
    expect((await api(noAccess, 'POST', `${P}/${s.path}`, s.body('Nope'))).status).toBe(403);
    expect((await api(noAccess, 'PUT', `${P}/${s.path}/${a.body.ident}`, s.change)).status).toBe(403);
    expect((await api(noAccess, 'DELETE', `${P}/${s.path}/${a.body.ident}`)).status).toBe(403);

    expect((await api(provider, 'DELETE', `${P}/${s.path}/${a.body.ident}`)).status).toBe(204);
    expect((await list(`${P}/${s.path}`)).some((i) => i.ident === a.body.ident)).toBe(false);
    expect((await api(provider, 'DELETE', `${P}/${s.path}/${a.body.ident}`)).status).toBe(404);
    expect((await api(provider, 'PUT', `${P}/${s.path}/${a.body.ident}`, s.change)).status).toBe(404);

    const audit = await auditOf(PATIENT, s.entity, a.body.ident);
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
    for (const entry of audit) {
      expect(entry).toMatchObject({ actorEmail: 'provider@demo.tidewell.local', patientId: PATIENT });
      expect(typeof entry.actorUserId).toBe('string');
      expect(Number.isNaN(Date.parse(String(entry.at)))).toBe(false);
    }
    // Nothing was written for the refused calls.
    expect(audit.filter((e) => e.actorEmail === 'noaccess@demo.tidewell.local')).toEqual([]);
  });
});
