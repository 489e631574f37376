import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCvx, parseMvx, searchVaccineCodes } from './cdc-parse.js';
import { DRUG_STARTER } from './drug-starter.js';
import { Icd10Index } from './icd10-index.js';
import { ICD10_CLINICIAN_TERMS } from './icd10-synonyms.js';
import { gunzipSync } from 'node:zlib';
import { detectIcd10Layout, dottedIcd10, parseIcd10 } from './icd10-parse.js';
import { ICD10_STARTER } from './icd10-starter.js';
import { DrugIndex, formatNdc11, ndc11, parseNdcDirectory } from './ndc.js';
import { CVX_STARTER_ROWS, MVX_STARTER_ROWS } from './vaccine-starter.js';
import { syntheticNdcDirectory } from '../../../test/bench/synthetic-ndc.js';
import type { DrugProduct } from '../../../shared/chart/code-sets.js';

const pad = (s: string, n: number) => s.padEnd(n, ' ');

describe('ICD-10-CM files', () => {
  it('reads the codes layout', () => {
    const text = 'A000    Cholera due to Vibrio cholerae 01, biovar cholerae\nE119    Type 2 diabetes mellitus without complications\n';
    expect(detectIcd10Layout(text)).toBe('codes');
    expect(parseIcd10(text).entries).toEqual([
      ['A000', 'Cholera due to Vibrio cholerae 01, biovar cholerae'],
      ['E119', 'Type 2 diabetes mellitus without complications'],
    ]);
  });
  it('reads the fixed-width order layout and keeps billable codes only', () => {
    const line = (n: number, code: string, flag: 0 | 1, short: string, long: string) =>
      `${String(n).padStart(5, '0')} ${pad(code, 7)} ${flag} ${pad(short, 60)} ${long}`;
    const text = [
      line(1, 'E11', 0, 'Type 2 diabetes mellitus', 'Type 2 diabetes mellitus'),
      line(2, 'E119', 1, 'Type 2 diabetes mellitus without complications', 'Type 2 diabetes mellitus without complications'),
    ].join('\n');
    expect(detectIcd10Layout(text)).toBe('order');
    expect(parseIcd10(text)).toEqual({ layout: 'order', entries: [['E119', 'Type 2 diabetes mellitus without complications']] });
  });
  it('refuses a file in neither layout', () => {
    expect(() => parseIcd10('hello world\n')).toThrow(/neither layout/);
  });
  it('dots codes longer than three characters', () => {
    expect(dottedIcd10('E119')).toBe('E11.9');
    expect(dottedIcd10('I10')).toBe('I10');
  });
});

describe('ICD-10 index', () => {
  const index = new Icd10Index(ICD10_STARTER);
  it('ranks exact code, code prefix, then description words', () => {
    expect(index.search('E11.9', 5, 0).items[0]).toEqual({ ident: 'E119', code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' });
    expect(index.search('e119', 5, 0).items[0].code).toBe('E11.9');
    const prefix = index.search('E11', 50, 0).items.map((i) => i.ident);
    expect(prefix.every((c) => c.startsWith('E11'))).toBe(true);
    const words = index.search('type 2 diab', 50, 0);
    expect(words.items.every((i) => /type 2 diabetes/i.test(i.description))).toBe(true);
    expect(words.total).toBe(words.items.length);
  });
  it('answers nothing under 3 characters and pages with offset', () => {
    expect(index.search('E1', 25, 0)).toEqual({ items: [], total: 0 });
    const all = index.search('diabetes', 100, 0);
    expect(index.search('diabetes', 2, 1).items).toEqual(all.items.slice(1, 3));
  });
  it('the starter set holds real, distinct codes', () => {
    expect(new Set(ICD10_STARTER.map((c) => c[0])).size).toBe(ICD10_STARTER.length);
    expect(ICD10_STARTER.length).toBeGreaterThanOrEqual(150);
  });
});

describe('the shipped ICD-10-CM FY2027 release and the words clinicians use', () => {
  const shipped = parseIcd10(gunzipSync(readFileSync(join(import.meta.dirname, '../../../infra/code-sets/icd10cm-codes-2027.txt.gz'))).toString('utf8'));
  const index = new Icd10Index(shipped.entries);
  const codes = (q: string, n = 10) => index.search(q, n, 0).items.map((i) => i.code);

  it('holds the whole release', () => {
    expect(shipped.layout).toBe('codes');
    expect(index.size).toBe(74_879);
  });
  it('finds "sore throat" and "strep" through the clinician phrases, ahead of the description matches', () => {
    expect(codes('sore throat').slice(0, 2)).toEqual(['J02.9', 'R07.0']);
    expect(codes('sore thr')[0]).toBe('J02.9');
    expect(codes('strep')[0]).toBe('J02.0');
    // Description words still follow: strep also finds the streptococcal sepsis codes.
    expect(index.search('strep', 100, 0).items.map((i) => i.code)).toContain('A40.0');
  });
  it('matches every word in any order, by word beginnings and plurals', () => {
    expect(codes('pharyngitis streptococcal')).toEqual(['J02.0']);
    expect(codes('throats pain')).toContain('R07.0');
    expect(codes('throat')).toContain('R07.0');
  });
  it('names only codes the release holds', () => {
    const missing = ICD10_CLINICIAN_TERMS.flatMap(([phrase, idents]) => idents.filter((id) => !index.get(id)).map((id) => `${phrase}: ${id}`));
    expect(missing).toEqual([]);
  });
});

describe('CDC CVX / MVX', () => {
  it('parses padded pipe-delimited rows and searches active codes', () => {
    const cvx = parseCvx(CVX_STARTER_ROWS.join('\n'));
    expect(cvx.find((c) => c.cvxCode === '43')).toMatchObject({ shortDescription: 'Hep B, adult', status: 'Active' });
    expect(searchVaccineCodes(cvx, '115', false)[0].shortDescription).toBe('Tdap');
    expect(searchVaccineCodes(cvx, 'hep b', false).every((c) => c.status === 'Active')).toBe(true);
    expect(parseMvx(MVX_STARTER_ROWS.join('\n')).find((m) => m.mvxCode === 'MSD')?.name).toBe('Merck and Co., Inc.');
  });
});

describe('FDA NDC directory', () => {
  it('normalises labeled NDCs to 11 digits', () => {
    expect(ndc11('0999-0101-30')).toBe('00999010130');
    expect(ndc11('99999-202-01')).toBe('99999020201');
    expect(ndc11('99998-3030-1')).toBe('99998303001');
    expect(ndc11('12345678901')).toBe('12345678901');
    expect(ndc11('1234567890')).toBeNull();
    expect(formatNdc11('00999010130')).toBe('00999-0101-30');
  });
  it('joins product.txt and package.txt on PRODUCTID and drops excluded packages', () => {
    const dir = join(import.meta.dirname, '../../../test/fixtures/ndc');
    const drugs = parseNdcDirectory(readFileSync(join(dir, 'product.txt'), 'latin1'), readFileSync(join(dir, 'package.txt'), 'latin1'));
    expect(drugs).toHaveLength(3);
    expect(drugs[2]).toMatchObject({
      productName: 'Fixturex XR',
      genericName: 'Metformin Hydrochloride',
      strength: '500',
      ndc: '99999-202-01',
      ndc11: '99999-0202-01',
    });
    const index = new DrugIndex(drugs);
    expect(index.search('lisin', 'NAME', 10).items.map((d) => d.ndc11)).toEqual(['00999-0101-30', '00999-0101-90']);
    expect(index.search('0999-0101-30', undefined, 10).items.map((d) => d.ndc)).toEqual(['0999-0101-30']);
    expect(index.search('metformin', undefined, 10).items[0].productName).toBe('Fixturex XR');
  });
  it('starter drugs carry no NDC', () => {
    expect(DRUG_STARTER.every((d) => d.ndc === undefined && d.ndc11 === undefined)).toBe(true);
    expect(new DrugIndex(DRUG_STARTER).search('metf', 'NAME', 10).items.length).toBe(2);
  });
  it('the index answers exactly what a pass over every package answers, in the same order', () => {
    const dir = syntheticNdcDirectory(3000, 11);
    const drugs = parseNdcDirectory(dir.productText, dir.packageText);
    const index = new DrugIndex(drugs);
    // The search as it was before the index: one pass over every row per query.
    const rows = [...drugs]
      .sort((a, b) => a.productName.localeCompare(b.productName) || a.strength.localeCompare(b.strength, 'en', { numeric: true }))
      .map((drug) => ({
        drug,
        words: `${drug.productName} ${drug.genericName}`
          .toLowerCase()
          .split(/[^a-z0-9.]+/)
          .filter(Boolean),
        digits: drug.ndc11!.replace(/-/g, ''),
      }));
    const scan = (q: string, limit: number): { items: DrugProduct[]; total: number } => {
      const text = q.trim().toLowerCase();
      if (/^[\d-]+$/.test(text)) {
        const digits = ndc11(text) ?? text.replace(/-/g, '');
        const hits = rows.filter((r) => r.digits.startsWith(digits));
        return { items: hits.slice(0, limit).map((h) => h.drug), total: hits.length };
      }
      const tokens = text.split(/[^a-z0-9.]+/).filter(Boolean);
      const hits = rows.filter((r) => tokens.every((t) => r.words.some((w) => w.startsWith(t))));
      hits.sort((a, b) => Number(!a.drug.productName.toLowerCase().startsWith(tokens[0])) - Number(!b.drug.productName.toLowerCase().startsWith(tokens[0])));
      return { items: hits.slice(0, limit).map((h) => h.drug), total: hits.length };
    };
    const queries = [
      'lisin',
      'hydro',
      'sodium chloride',
      'chloride sodium',
      'metformin hydrochloride',
      'amox',
      'zzzz',
      dir.brandNames[3],
      dir.brandNames[40].slice(0, 4),
      dir.ndcs[17],
      dir.ndcs[17].slice(0, 7),
      dir.ndcs[900].replace(/-/g, '').padStart(11, '0'),
      '2001',
    ];
    let nonEmpty = 0;
    for (const q of queries) {
      for (const limit of [1, 25, 100]) {
        const got = index.search(q, undefined, limit);
        const want = scan(q, limit);
        expect({ q, limit, total: got.total, ndcs: got.items.map((d) => d.ndc11) }).toEqual({
          q,
          limit,
          total: want.total,
          ndcs: want.items.map((d) => d.ndc11),
        });
        if (want.total > 0) nonEmpty++;
      }
    }
    // The comparison means something only if most queries find drugs.
    expect(nonEmpty).toBeGreaterThanOrEqual(30);
    expect(index.search('hydrochlorothiazide', 'NAME', 100).items.every((d) => /hydrochlorothiazide/i.test(`${d.productName} ${d.genericName}`))).toBe(true);
  });
});
