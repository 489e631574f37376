import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importCvx, importIcd10, importIcd10Index, importMvx, importNdc } from '../../functions/lib/code-sets/importers.js';
import { api, signIn, stackEndpoints, stackOutputs } from '../support/local-stack.js';

const DATA = resolve(import.meta.dirname, '../../../shared/data');
const ICD10_FILE = join(DATA, 'icd10cm-codes-2027.txt');
const SHIPPED = resolve(import.meta.dirname, '../../infra/code-sets');
let token: string;

/** The importer runs in this process against the stack's table and file store, as `npm run import:codes` does. */
function useStack() {
  const e = stackEndpoints();
  Object.assign(process.env, {
    TABLE_NAME: e.tableName,
    PRACTICE_ID: e.practiceId,
    DYNAMODB_ENDPOINT: e.dynamodb,
    S3_ENDPOINT: e.s3,
    FILES_BUCKET: stackOutputs().filesBucket,
    AWS_REGION: stackOutputs().region,
  });
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
}

beforeAll(async () => {
  useStack();
  token = await signIn('provider@demo.tidewell.local');
});

describe('ICD-10-CM', () => {
  it('searches the official release once imported (the starter set when the file is absent)', async () => {
    if (existsSync(ICD10_FILE)) {
      const manifest = await importIcd10(ICD10_FILE);
      expect(manifest.source).toMatchObject({ kind: 'official', count: 74_879, releaseDate: '2026-10-01' });
      const byCode = await api(token, 'GET', '/v1/icd-10-codes?keyword=E11.9');
      expect(byCode.body.source).toMatchObject({ kind: 'official', count: 74_879 });
      expect(byCode.body.items[0]).toEqual({ ident: 'E119', code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
      expect((await api(token, 'GET', '/v1/icd-10-codes?keyword=e119')).body.items[0].code).toBe('E11.9');
      const fy2027 = await api(token, 'GET', '/v1/icd-10-codes?keyword=C78.31');
      expect(fy2027.body.items[0].code).toBe('C78.31');
      const words = await api(token, 'GET', '/v1/icd-10-codes?keyword=type%202%20diabetes&limit=25&offset=0');
      // Every word matched as a word prefix, in any order (93 codes say "type 2 diabetes" verbatim).
      expect(words.body.total).toBeGreaterThanOrEqual(93);
      expect(words.body.items).toHaveLength(25);
      expect(
        words.body.items.every(
          (i: { description: string }) => /\btype\b/i.test(i.description) && /\b2/.test(i.description) && /\bdiabetes/i.test(i.description),
        ),
      ).toBe(true);
      const page2 = await api(token, 'GET', '/v1/icd-10-codes?keyword=type%202%20diabetes&limit=25&offset=25');
      expect(page2.body.items[0].ident).not.toBe(words.body.items[0].ident);
    } else {
      const res = await api(token, 'GET', '/v1/icd-10-codes?keyword=E11.9');
      expect(res.body.source.kind).toBe('starter');
      expect(res.body.items[0].code).toBe('E11.9');
    }
    expect(await api(token, 'GET', '/v1/icd-10-codes?keyword=E1')).toMatchObject({ status: 200, body: { items: [], total: 0 } });
    expect((await api(token, 'GET', '/v1/icd-10-codes?keyword=abc&limit=x')).status).toBe(400);
  });
});

describe('ICD-10-CM alphabetic index', () => {
  const codesOf = async (keyword: string, limit = 25) =>
    (
      (await api(token, 'GET', `/v1/icd-10-codes?keyword=${encodeURIComponent(keyword)}&limit=${limit}&offset=0`)).body.items as {
        code: string;
        description: string;
      }[]
    ).map((i) => i.code);

  it('finds codes by the words of the shipped index once it is imported', async () => {
    await importIcd10(join(SHIPPED, 'icd10cm-codes-2027.txt.gz'));
    // Words only the index holds: "Sore, throat, streptococcal J02.0"; "Abasia (-astasia) (hysterical) F44.4".
    const indexOnly = ['sore throat streptococcal', 'abasia', 'strephosymbolia'];
    const before = await Promise.all(indexOnly.map((q) => codesOf(q)));
    expect(before.map((codes) => codes.filter((c) => ['J02.0', 'F44.4', 'F81.0'].includes(c)))).toEqual([[], [], []]);

    const manifest = await importIcd10Index(join(SHIPPED, 'icd10cm-index-2025.csv.gz'));
    expect(manifest.source).toMatchObject({ kind: 'official', label: expect.stringContaining('Alphabetic Index'), count: expect.any(Number) });
    expect(manifest.source.count).toBeGreaterThan(60_000);

    expect((await codesOf('sore throat streptococcal'))[0]).toBe('J02.0');
    expect((await codesOf('abasia'))[0]).toBe('F44.4');
    expect((await codesOf('strephosymbolia'))[0]).toBe('F81.0');
    // "Sore, throat (acute) — see also Pharyngitis", and Pharyngitis is J02.9.
    expect(await codesOf('sore throat')).toContain('J02.9');
    const strep = await api(token, 'GET', '/v1/icd-10-codes?keyword=strep&limit=25&offset=0');
    expect(strep.body.items.some((i: { description: string }) => /streptococcal/i.test(i.description))).toBe(true);
    expect(strep.body.items.map((i: { code: string }) => i.code)).toEqual(expect.arrayContaining(['J02.0', 'A25.1']));
    // A code to complete (Conjunctivitis, acute, atopic H10.1-) lists the billable codes under it.
    const atopic = await codesOf('conjunctivitis acute atopic');
    expect(atopic.filter((c) => c.startsWith('H10.1')).length).toBeGreaterThan(1);
  });
});

describe('CVX, MVX and NDC', () => {
  it('serves the CDC tables after import', async () => {
    // The CDC's tables when ../shared/data holds them, else a few rows in the same layout.
    const official = existsSync(join(DATA, 'cvx.txt')) && existsSync(join(DATA, 'mvx.txt'));
    const dir = official ? DATA : resolve(import.meta.dirname, '../fixtures/cdc');
    await importCvx(join(dir, 'cvx.txt'));
    await importMvx(join(dir, 'mvx.txt'));
    const cvx = await api(token, 'GET', '/v1/vaccine-codes?keyword=tdap');
    expect(cvx.body.source).toMatchObject({ kind: 'official', releaseDate: official ? '2024-06-12' : '2018-05-10' });
    expect(cvx.body.items.map((c: { cvxCode: string }) => c.cvxCode)).toContain('115');
    const mvx = await api(token, 'GET', '/v1/vaccine-manufacturers?keyword=merck');
    expect(mvx.body.items[0]).toMatchObject({ mvxCode: 'MSD' });
  });

  it('drug search: starter list, then the imported FDA directory, v1 and v2', async () => {
    const before = await api(token, 'GET', '/v2/nationaldrugcodes/search?searchText=lisinopril&searchBy=NAME');
    if (before.body.source.kind === 'starter') expect(before.body.items[0]).toMatchObject({ productName: 'Lisinopril', strength: '10' });
    await importNdc(resolve(import.meta.dirname, '../fixtures/ndc'));
    const v2 = await api(token, 'GET', '/v2/nationaldrugcodes/search?searchText=lisinopril&searchBy=NAME');
    expect(v2.body.source.kind).toBe('official');
    expect(v2.body.items.map((d: { ndc11: string }) => d.ndc11)).toEqual(['00999-0101-30', '00999-0101-90']);
    const v1 = await api(token, 'GET', '/v1/nationaldrugcodes/search?searchTerm=99999-202-01');
    expect(v1.body.items[0]).toMatchObject({ productName: 'Fixturex XR', ndc: '99999-202-01' });
    const noAccess = await signIn('noaccess@demo.tidewell.local');
    expect((await api(noAccess, 'GET', '/v1/nationaldrugcodes/search?searchTerm=lisinopril')).status).toBe(403);
  });
});
