import type { DrugProduct } from '../../../shared/chart/code-sets.js';
import { prefixRange, wordRangesRarestFirst } from './sorted-prefix.js';

/**
 * NDCs are labeled 10 digits in three segments (4-4-2, 5-3-2 or 5-4-1); claims and matching use
 * the 11-digit 5-4-2 form, zero-padding the short segment. Returns the 11 digits, or null when
 * the text is not an NDC (a 10-digit number without hyphens is ambiguous, so it is refused).
 */
export function ndc11(text: string): string | null {
  const t = text.trim();
  if (/^\d{11}$/.test(t)) return t;
  const m = /^(\d{4,5})-(\d{3,4})-(\d{1,2})$/.exec(t);
  if (!m) return null;
  const [l, p, k] = [m[1], m[2], m[3]];
  if (l.length + p.length + k.length === 11 && l.length === 5 && p.length === 4) return `${l}${p}${k}`;
  if (l.length + p.length + k.length !== 10) return null;
  return `${l.padStart(5, '0')}${p.padStart(4, '0')}${k.padStart(2, '0')}`;
}

/** 11 digits → 00000-0000-00. */
export const formatNdc11 = (digits: string) => `${digits.slice(0, 5)}-${digits.slice(5, 9)}-${digits.slice(9)}`;

export function table(text: string, name: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new Error(`${name} is empty`);
  const header = lines[0].split('\t').map((h) => h.trim().toUpperCase());
  if (!header.includes('PRODUCTID')) throw new Error(`${name} has no PRODUCTID column: not an FDA NDC directory file`);
  return lines.slice(1).map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? '').trim()]));
  });
}

/**
 * FDA NDC directory: product.txt and package.txt (tab-delimited, header row), joined on
 * PRODUCTID; one result per package. Products or packages the FDA flags as excluded are kept
 * only when not flagged (NDC_EXCLUDE_FLAG = 'Y' drops them).
 */
export function parseNdcDirectory(productText: string, packageText: string): DrugProduct[] {
  const products = new Map<string, Record<string, string>>();
  for (const row of table(productText, 'product.txt')) products.set(row.PRODUCTID, row);
  const out: DrugProduct[] = [];
  for (const pkg of table(packageText, 'package.txt')) {
    const p = products.get(pkg.PRODUCTID);
    if (!p || pkg.NDC_EXCLUDE_FLAG === 'Y' || p.NDC_EXCLUDE_FLAG === 'Y') continue;
    const digits = ndc11(pkg.NDCPACKAGECODE);
    if (!digits) continue;
    const brand = [p.PROPRIETARYNAME, p.PROPRIETARYNAMESUFFIX].filter(Boolean).join(' ');
    out.push({
      ident: digits,
      productName: brand || p.NONPROPRIETARYNAME,
      genericName: p.NONPROPRIETARYNAME,
      strength: p.ACTIVE_NUMERATOR_STRENGTH,
      strengthUOM: p.ACTIVE_INGRED_UNIT,
      dosageForm: p.DOSAGEFORMNAME,
      route: p.ROUTENAME,
      ndc: pkg.NDCPACKAGECODE,
      ndc11: formatNdc11(digits),
      packageDescription: pkg.PACKAGEDESCRIPTION,
      labeler: p.LABELERNAME,
    });
  }
  if (out.length === 0) throw new Error('No packages joined to a product: check that product.txt and package.txt are from the same release');
  return out;
}

const nameWords = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9.]+/)
    .filter(Boolean);

/** The `limit` smallest row numbers offered to it, ascending (a bounded insertion list; limit ≤ 100). */
class SmallestRows {
  readonly rows: number[] = [];
  constructor(private readonly limit: number) {}
  offer(row: number): void {
    const rows = this.rows;
    if (rows.length === this.limit && row >= rows[rows.length - 1]) return;
    let i = rows.length;
    while (i > 0 && rows[i - 1] > row) i--;
    rows.splice(i, 0, row);
    if (rows.length > this.limit) rows.pop();
  }
}

/**
 * Drug search (medication form): by NDC digits (any of the labeled or 11-digit forms, prefix),
 * or by words of the brand and generic names (each typed word a prefix of a name word). Name
 * matches that start with the query come first, then by name and strength.
 *
 * A full FDA directory is about 250,000 packages, so nothing here walks all the rows per query.
 * Rows are numbered in result order (name, then strength). The names' words form a sorted
 * vocabulary, each word with the ascending rows it occurs in; a word query walks the postings of
 * the rarest typed word's prefix range first and only advances rows it touched. Names and 11-digit
 * NDCs are also kept sorted by text, so "name starts with the first word" and "NDC starts with
 * these digits" are each one binary-searched range. Only the first `limit` rows of the hits are
 * ever ordered.
 */
export class DrugIndex {
  private readonly drugs: DrugProduct[];
  private readonly vocabulary: string[];
  private readonly postings: Int32Array[];
  private readonly sortedNames: string[];
  /** Row → its position in sortedNames. */
  private readonly nameRank: Int32Array;
  private readonly ndcDigits: string[];
  private readonly ndcRows: Int32Array;
  /** Per row: how many of the query's words it has matched so far (reset after each query). */
  private readonly stage: Uint8Array;
  /** Rows the rarest word touched, for the current query. */
  private readonly touched: Int32Array;

  constructor(drugs: readonly DrugProduct[]) {
    // A collator is an order of magnitude faster than String#localeCompare over 250,000 rows.
    const byName = new Intl.Collator('en');
    const byStrength = new Intl.Collator('en', { numeric: true });
    this.drugs = [...drugs].sort((a, b) => byName.compare(a.productName, b.productName) || byStrength.compare(a.strength, b.strength));
    const n = this.drugs.length;
    const byWord = new Map<string, number[]>();
    const ndcs: [string, number][] = [];
    const names: [string, number][] = [];
    this.drugs.forEach((drug, row) => {
      for (const w of new Set(nameWords(`${drug.productName} ${drug.genericName}`))) {
        let list = byWord.get(w);
        if (!list) byWord.set(w, (list = []));
        list.push(row);
      }
      names.push([drug.productName.toLowerCase(), row]);
      const digits = drug.ndc11?.replace(/-/g, '') ?? '';
      if (digits) ndcs.push([digits, row]);
    });
    const byText = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
    this.vocabulary = [...byWord.keys()].sort();
    this.postings = this.vocabulary.map((w) => Int32Array.from(byWord.get(w)!));
    names.sort(byText);
    this.sortedNames = names.map((x) => x[0]);
    this.nameRank = new Int32Array(n);
    names.forEach(([, row], rank) => (this.nameRank[row] = rank));
    ndcs.sort(byText);
    this.ndcDigits = ndcs.map((x) => x[0]);
    this.ndcRows = Int32Array.from(ndcs.map((x) => x[1]));
    this.stage = new Uint8Array(n);
    this.touched = new Int32Array(n);
  }

  get size(): number {
    return this.drugs.length;
  }

  /** Calls `hit` once for every row whose names have a word starting with every token (any order). */
  private eachRowWithWords(tokens: string[], hit: (row: number) => void): void {
    if (tokens.length === 0 || tokens.length > 250) return;
    const ranges = wordRangesRarestFirst(this.vocabulary, this.postings, tokens);
    if (ranges[0].size === 0) return;
    const { stage, touched } = this;
    let count = 0;
    ranges.forEach(({ lo, hi }, k) => {
      for (let w = lo; w < hi; w++) {
        const list = this.postings[w];
        for (let i = 0; i < list.length; i++) {
          const row = list[i];
          if (stage[row] !== k) continue;
          stage[row] = k + 1;
          if (k === 0) touched[count++] = row;
        }
      }
    });
    for (let i = 0; i < count; i++) {
      const row = touched[i];
      if (stage[row] === tokens.length) hit(row);
      stage[row] = 0;
    }
  }

  search(text: string, searchBy: 'NAME' | 'NDC' | undefined, limit: number): { items: DrugProduct[]; total: number } {
    const q = text.trim().toLowerCase();
    if (!q || limit <= 0) return { items: [], total: 0 };
    const asNdc = searchBy === 'NDC' || (searchBy !== 'NAME' && /^[\d-]+$/.test(q));
    if (asNdc) {
      const digits = ndc11(q) ?? q.replace(/-/g, '');
      const [lo, hi] = digits ? prefixRange(this.ndcDigits, digits) : [0, 0];
      const top = new SmallestRows(limit);
      for (let i = lo; i < hi; i++) top.offer(this.ndcRows[i]);
      return { items: top.rows.map((row) => this.drugs[row]), total: hi - lo };
    }
    const tokens = nameWords(q);
    // Names that start with the first typed word first; each part keeps the name order.
    const [startLo, startHi] = prefixRange(this.sortedNames, tokens[0] ?? '');
    const starting = new SmallestRows(limit);
    const others = new SmallestRows(limit);
    let total = 0;
    this.eachRowWithWords(tokens, (row) => {
      total++;
      const rank = this.nameRank[row];
      (rank >= startLo && rank < startHi ? starting : others).offer(row);
    });
    const rows = [...starting.rows, ...others.rows].slice(0, limit);
    return { items: rows.map((row) => this.drugs[row]), total };
  }
}
