import { table } from '../code-sets/ndc.js';
import { ingredientKey, type DdiPair, type DdiPayload, type DrugClassPayload } from './drug-knowledge.js';

/**
 * FDA NDC directory product.txt → ingredients with their Established Pharmacologic Classes.
 * SUBSTANCENAME lists a product's active ingredients ("AMOXICILLIN; CLAVULANATE POTASSIUM");
 * PHARM_CLASSES its classes, comma-separated, each with its type in brackets ("Penicillin-class
 * Antibacterial [EPC],Penicillins [CS]"). A class is given to an ingredient only from products that
 * have that one ingredient (a combination's classes cannot be split between its ingredients); a
 * combination still makes its ingredients known by name. A one-word brand name is kept when all
 * its products have the same ingredients.
 */
export function parseDrugClasses(productText: string): DrugClassPayload {
  const classes = new Map<string, Set<string>>();
  const brands = new Map<string, Set<string> | null>();
  for (const row of table(productText, 'product.txt')) {
    if (row.NDC_EXCLUDE_FLAG === 'Y') continue;
    const substances = (row.SUBSTANCENAME ?? '').split(';').map(ingredientKey).filter(Boolean);
    if (substances.length === 0) continue;
    const epc = (row.PHARM_CLASSES ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c.endsWith('[EPC]'));
    for (const s of substances) if (!classes.has(s)) classes.set(s, new Set());
    if (substances.length === 1) for (const c of epc) classes.get(substances[0])!.add(c);
    const brand = ingredientKey(row.PROPRIETARYNAME ?? '');
    if (!brand || brand.includes(' ') || brand.length < 4 || substances.includes(brand)) continue;
    const key = [...new Set(substances)].sort().join('|');
    const prior = brands.get(brand);
    if (prior === undefined) brands.set(brand, new Set([key]));
    else if (prior && !prior.has(key)) brands.set(brand, null);
  }
  if (classes.size === 0) throw new Error('product.txt has no SUBSTANCENAME values: not an FDA NDC directory product file');
  return {
    ingredients: [...classes].map(([name, set]) => [name, [...set].sort()]),
    brands: [...brands]
      .filter((entry): entry is [string, Set<string>] => entry[1] !== null && !classes.has(entry[0]))
      .map(([brand, set]) => [brand, [...set][0]!.split('|')]),
  };
}

const DDI_COLUMNS = ['id', 'a_label', 'a_classes', 'a_ingredients', 'b_label', 'b_classes', 'b_ingredients', 'severity', 'effect'] as const;

/**
 * An interaction list as TSV (README "Allergy and interaction checks"): `#` lines are comments
 * (the source and its date), then a header with DDI_COLUMNS, then one pair per line; classes and
 * ingredients are separated by `;`.
 */
export function parseDdiTsv(text: string): { payload: DdiPayload; label?: string; releaseDate?: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const comments = lines.filter((l) => l.startsWith('#')).map((l) => l.replace(/^#\s*/, ''));
  const rows = lines.filter((l) => l.trim() && !l.startsWith('#'));
  const header = (rows.shift() ?? '').split('\t').map((h) => h.trim().toLowerCase());
  const missing = DDI_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new Error(`The interaction file has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}`);
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(';')
      .map((x) => x.trim())
      .filter(Boolean);
  const pairs: DdiPair[] = rows.map((line, i) => {
    const cells = line.split('\t');
    const get = (c: (typeof DDI_COLUMNS)[number]) => (cells[header.indexOf(c)] ?? '').trim();
    const pair: DdiPair = {
      id: get('id') || `ddi-${i + 1}`,
      a: { label: get('a_label'), classes: list(get('a_classes')), ingredients: list(get('a_ingredients')).map(ingredientKey) },
      b: { label: get('b_label'), classes: list(get('b_classes')), ingredients: list(get('b_ingredients')).map(ingredientKey) },
      severity: get('severity') || 'High priority',
      effect: get('effect'),
    };
    if (!pair.a.label || !pair.b.label || (!pair.a.classes.length && !pair.a.ingredients.length) || (!pair.b.classes.length && !pair.b.ingredients.length)) {
      throw new Error(`Line ${i + 2} of the interaction file needs a label and at least one class or ingredient on each side`);
    }
    return pair;
  });
  if (pairs.length === 0) throw new Error('The interaction file lists no interactions');
  const meta = (name: string) =>
    comments
      .find((c) => c.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  const releaseDate = meta('date');
  return { payload: { pairs }, label: meta('source'), ...(releaseDate && /^\d{4}-\d{2}-\d{2}$/.test(releaseDate) ? { releaseDate } : {}) };
}

/** The same TSV from a list, so the built-in list can be written out, edited and loaded back. */
export function ddiToTsv(pairs: readonly DdiPair[], source: string, date: string): string {
  const rows = pairs.map((p) =>
    [
      p.id,
      p.a.label,
      p.a.classes.join('; '),
      p.a.ingredients.join('; '),
      p.b.label,
      p.b.classes.join('; '),
      p.b.ingredients.join('; '),
      p.severity,
      p.effect,
    ].join('\t'),
  );
  return [`# source: ${source}`, `# date: ${date}`, DDI_COLUMNS.join('\t'), ...rows].join('\n') + '\n';
}
