import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { icd10IndexTerms, parseIcd10IndexCsv } from './icd10-index-parse.js';
import { Icd10Index } from './icd10-index.js';
import { Icd10Terms } from './icd10-terms.js';

// Rows copied verbatim from the shipped index file (infra/code-sets/icd10cm-index-2025.csv.gz).
const EXCERPT = readFileSync(join(import.meta.dirname, '../../../test/fixtures/icd10-index/icd10cm-index-excerpt.csv'), 'utf8');
const HEADER = 'RowID,Letter,Level,Term,See,SeeAlso,NonEssModif,Code';

// Long descriptions of the FY2027 codes file for the codes the excerpt leads to.
const CODES: [string, string][] = [
  ['A251', 'Streptobacillosis'],
  ['B085', 'Enteroviral vesicular pharyngitis'],
  ['F349', 'Persistent mood [affective] disorder, unspecified'],
  ['J020', 'Streptococcal pharyngitis'],
  ['J028', 'Acute pharyngitis due to other specified organisms'],
  ['J029', 'Acute pharyngitis, unspecified'],
  ['J1000', 'Influenza due to other identified influenza virus with unspecified type of pneumonia'],
  ['J101', 'Influenza due to other identified influenza virus with other respiratory manifestations'],
  ['J111', 'Influenza due to unidentified influenza virus with other respiratory manifestations'],
  ['J312', 'Chronic pharyngitis'],
  ['R070', 'Pain in throat'],
  ['R52', 'Pain, unspecified'],
];

describe('ICD-10-CM alphabetic index file', () => {
  const rows = parseIcd10IndexCsv(EXCERPT);

  it('reads each main term and subterm with its level, references, modifiers and code', () => {
    expect(rows).toHaveLength(54);
    expect(rows[0]).toEqual({ level: 0, title: 'Disorder', see: '', seeAlso: 'Disease', nemod: '(of)', code: '' });
    expect(rows.find((r) => r.title === 'Pharyngitis')).toMatchObject({ level: 0, code: 'J02.9', nemod: expect.stringMatching(/^\(acute\) \(catarrhal\)/) });
    expect(rows.find((r) => r.title === 'with influenza, flu, or grippe')).toMatchObject({ level: 1, see: 'Influenza, with, pharyngitis', code: '' });
    expect(rows.find((r) => r.title === 'throat' && r.seeAlso)).toEqual({
      level: 1,
      title: 'throat',
      see: '',
      seeAlso: 'Pharyngitis',
      nemod: '(acute)',
      code: '',
    });
  });

  it('refuses a file that is not the index, a level that skips one and a malformed code', () => {
    expect(() => parseIcd10IndexCsv('A000    Cholera\n')).toThrow(/Not an ICD-10-CM index file/);
    expect(() => parseIcd10IndexCsv(`${HEADER}\n1,A,0,Abasia,,,,F44.4\n2,A,2,deep,,,,F44.4\n`)).toThrow(/Line 3: level "2"/);
    expect(() => parseIcd10IndexCsv(`${HEADER}\n1,A,0,Abasia,,,,F44\n2,A,0,Abscess,,,,not-a-code\n`)).toThrow(/Line 3: "not-a-code"/);
    expect(() => parseIcd10IndexCsv(`${HEADER}\n1,A,0,"Abasia,,,,F44.4\n`)).toThrow(/Line 2: unterminated/);
  });

  it('gives each entry its path and the code it leads to, following see and see-also references', () => {
    const terms = new Map(icd10IndexTerms(rows).map(([path, level, code]) => [path, { level, code }]));
    expect(terms.get('Pharyngitis')).toEqual({ level: 0, code: 'J02.9' });
    // "Sore, throat (acute) — see also Pharyngitis"
    expect(terms.get('Sore › throat')).toEqual({ level: 1, code: 'J02.9' });
    expect(terms.get('Sore › throat › streptococcal')).toEqual({ level: 2, code: 'J02.0' });
    // "— see Influenza, with, respiratory manifestations NEC": a main term, then its subterms.
    expect(terms.get('Sore › throat › influenzal')).toEqual({ level: 2, code: 'J11.1' });
    // Influenza, with, pharyngitis is not in the excerpt; Disease (Disorder's see also) neither.
    expect(terms.has('Pharyngitis › with influenza, flu, or grippe')).toBe(false);
    expect(terms.has('Disorder')).toBe(false);
    // An entry that lost its title keeps its place: its sibling is still under "persistent".
    expect(terms.get('Disorder › persistent › affective')).toEqual({ level: 2, code: 'F34.9' });
    expect([...terms.keys()].some((p) => p.endsWith('› '))).toBe(false);
  });
});

describe('Diagnosis search through the alphabetic index', () => {
  const terms = new Icd10Terms(icd10IndexTerms(parseIcd10IndexCsv(EXCERPT)));
  const codes = new Icd10Index(CODES);
  const search = (q: string, withIndex = true) => codes.search(q, 20, 0, withIndex ? terms : null).items.map((i) => i.code);

  it('finds codes by the words of index entries that no description holds', () => {
    expect(search('sore throat streptococcal')[0]).toBe('J02.0');
    expect(search('sore throat streptococcal', false)).toEqual([]);
    expect(search('influenzal sore throat')).toEqual(['J11.1']);
    expect(search('persistent affective disorder')[0]).toBe('F34.9');
  });

  it('ranks the whole entry before longer ones, main terms before subterms', () => {
    expect(terms.match(['sore', 'throat']).slice(0, 2)).toEqual(['J029', 'J312']);
    expect(terms.match(['throat'])[0]).toBe('R070');
    expect(terms.match(['pharyngitis'])[0]).toBe('J029');
    // Index entries come before the description-only matches, after an exact code.
    expect(search('streptococcal pharyngitis')[0]).toBe('J02.0');
    expect(search('J02.9')[0]).toBe('J02.9');
  });

  it('a code to complete stands for the billable codes under it', () => {
    expect(terms.match(['influenza', 'a'])[0]).toBe('J10');
    expect(search('influenza a').slice(0, 2)).toEqual(['J10.00', 'J10.1']);
  });
});
