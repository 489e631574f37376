import type { DrugProduct } from '../../../shared/chart/code-sets.js';

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

function table(text: string, name: string): Record<string, string>[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');
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

interface Searchable {
  drug: DrugProduct;
  words: string[];
  digits: string;
}

/**
 * Drug search (medication form): by NDC digits (any of the labeled or 11-digit forms, prefix),
 * or by words of the brand and generic names (each typed word a prefix of a name word). Name
 * matches that start with the query come first, then by name and strength.
 */
export class DrugIndex {
  private readonly rows: Searchable[];

  constructor(drugs: readonly DrugProduct[]) {
    this.rows = [...drugs]
      .sort((a, b) => a.productName.localeCompare(b.productName) || a.strength.localeCompare(b.strength, 'en', { numeric: true }))
      .map((drug) => ({
        drug,
        words: `${drug.productName} ${drug.genericName}`.toLowerCase().split(/[^a-z0-9.]+/).filter(Boolean),
        digits: drug.ndc11?.replace(/-/g, '') ?? '',
      }));
  }

  get size(): number {
    return this.rows.length;
  }

  search(text: string, searchBy: 'NAME' | 'NDC' | undefined, limit: number): { items: DrugProduct[]; total: number } {
    const q = text.trim().toLowerCase();
    if (!q) return { items: [], total: 0 };
    const asNdc = searchBy === 'NDC' || (searchBy !== 'NAME' && /^[\d-]+$/.test(q));
    let hits: Searchable[];
    if (asNdc) {
      const digits = ndc11(q) ?? q.replace(/-/g, '');
      hits = this.rows.filter((r) => r.digits !== '' && r.digits.startsWith(digits));
    } else {
      const tokens = q.split(/[^a-z0-9.]+/).filter(Boolean);
      hits = this.rows.filter((r) => tokens.every((t) => r.words.some((w) => w.startsWith(t))));
      const first = tokens[0];
      hits.sort((a, b) => Number(!a.drug.productName.toLowerCase().startsWith(first)) - Number(!b.drug.productName.toLowerCase().startsWith(first)));
    }
    return { items: hits.slice(0, limit).map((h) => h.drug), total: hits.length };
  }
}
