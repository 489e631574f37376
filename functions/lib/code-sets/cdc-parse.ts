import type { VaccineCode, VaccineManufacturer } from '../../../shared/chart/code-sets.js';

/*
 * CDC IIS code tables (pipe-delimited, fields padded with spaces, so every field is trimmed):
 *   cvx.txt  CVX code|short description|full vaccine name|notes|status|nonvaccine|last updated (YYYY/MM/DD)
 *   mvx.txt  MVX code|manufacturer name|notes|status|last updated (YYYY/MM/DD)
 */

const isoOf = (cdcDate: string) => {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(cdcDate.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
};

function rows(text: string, minFields: number, name: string): string[][] {
  const out: string[][] = [];
  text.split(/\r?\n/).forEach((line, n) => {
    if (line.trim() === '') return;
    const fields = line.split('|').map((f) => f.trim());
    if (fields.length < minFields) throw new Error(`${name} line ${n + 1}: expected ${minFields} fields separated by |`);
    out.push(fields);
  });
  if (out.length === 0) throw new Error(`${name} holds no rows`);
  return out;
}

export function parseCvx(text: string): VaccineCode[] {
  return rows(text.replace(/^\uFEFF/, ''), 7, 'cvx.txt').map((f) => ({
    cvxCode: f[0],
    shortDescription: f[1],
    fullName: f[2],
    status: f[4],
    nonVaccine: f[5].toLowerCase() === 'true',
    updatedAt: isoOf(f[6]),
  }));
}

export function parseMvx(text: string): VaccineManufacturer[] {
  return rows(text.replace(/^\uFEFF/, ''), 5, 'mvx.txt').map((f) => ({ mvxCode: f[0], name: f[1], status: f[3], updatedAt: isoOf(f[4]) }));
}

/** Latest "last updated" of a table: the snapshot date shown as the release. */
export function latestUpdate(items: readonly { updatedAt?: string }[]): string | undefined {
  return items.reduce<string | undefined>((max, i) => (i.updatedAt && (!max || i.updatedAt > max) ? i.updatedAt : max), undefined);
}

const fold = (s: string) => s.toLowerCase();

const startsAWord = (text: string, token: string) =>
  text.startsWith(token) || text.includes(` ${token}`) || text.includes(`(${token}`) || text.includes(`-${token}`) || text.includes(`,${token}`);

/**
 * How well a code answers the query, lower is better, -1 for no match: the CVX code exactly, then
 * as a prefix; then the vaccine's own name (short description) with every word starting a word,
 * then containing every word; only then the long full name, which names related organisms too
 * ("Haemophilus influenzae type b" is not an influenza vaccine).
 */
function vaccineRank(c: VaccineCode, q: string, tokens: readonly string[]): number {
  if (c.cvxCode === q) return 0;
  if (c.cvxCode.startsWith(q)) return 1;
  const name = fold(c.shortDescription);
  if (tokens.every((t) => startsAWord(name, t))) return 2;
  if (tokens.every((t) => name.includes(t))) return 3;
  const full = fold(`${c.shortDescription} ${c.fullName}`);
  if (tokens.every((t) => startsAWord(full, t))) return 4;
  if (tokens.every((t) => full.includes(t))) return 5;
  return -1;
}

/** Best match first (see vaccineRank), then by name; active codes unless asked. */
export function searchVaccineCodes(codes: readonly VaccineCode[], keyword: string, includeInactive: boolean): VaccineCode[] {
  const q = fold(keyword.trim());
  const pool = codes.filter((c) => includeInactive || c.status === 'Active');
  if (!q) return [...pool].sort((a, b) => a.shortDescription.localeCompare(b.shortDescription));
  const tokens = q.split(/\s+/);
  const scored: [number, VaccineCode][] = [];
  for (const c of pool) {
    const rank = vaccineRank(c, q, tokens);
    if (rank >= 0) scored.push([rank, c]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].shortDescription.localeCompare(b[1].shortDescription)).map((s) => s[1]);
}

export function searchManufacturers(items: readonly VaccineManufacturer[], keyword: string, includeInactive: boolean): VaccineManufacturer[] {
  const q = fold(keyword.trim());
  return items
    .filter((m) => includeInactive || m.status === 'Active')
    .filter((m) => !q || fold(m.mvxCode) === q || fold(m.name).includes(q))
    .sort((a, b) => (fold(a.mvxCode) === q ? -1 : fold(b.mvxCode) === q ? 1 : a.name.localeCompare(b.name)));
}
