/**
 * Reads the ICD-10-CM Alphabetic Index ("Index to Diseases and Injuries", CDC/NCHS
 * `icd10cm_index_YYYY.xml`) flattened to CSV, one row per main term or subterm in the book's order:
 * `RowID,Letter,Level,Term,See,SeeAlso,NonEssModif,Code` (Level 0 is a main term, each subterm one
 * deeper than its parent; infra/code-sets/README.md names the shipped file and how it was made).
 *
 * The product searches index entries by the words of their whole path ("Sore" › "throat"), so an
 * entry keeps the titles from its main term down and the code it leads to: its own, else the code
 * of the entry its "see" or "see also" reference names ("Sore, throat" → see also Pharyngitis → J02.9).
 */
export interface Icd10IndexRow {
  level: number;
  title: string;
  see: string;
  seeAlso: string;
  nemod: string;
  code: string;
}

/** An index entry as search stores it: its path of titles, its depth (0 = main term), and a code (J02.9, or a prefix such as H57.1- or A40.-). */
export type Icd10IndexTerm = [path: string, level: number, code: string];

const HEADER = 'RowID,Letter,Level,Term,See,SeeAlso,NonEssModif,Code';
const INDEX_CODE = /^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{0,4})?-?$/;
export const PATH_SEPARATOR = ' › ';

/** One CSV record (RFC 4180 quoting; the index file has no line breaks inside a field). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') throw new Error('text after a quoted field');
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

export function parseIcd10IndexCsv(text: string): Icd10IndexRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== HEADER) throw new Error(`Not an ICD-10-CM index file: the first line must be "${HEADER}"`);
  const rows: Icd10IndexRow[] = [];
  let previous = -1;
  for (let n = 1; n < lines.length; n++) {
    if (lines[n].trim() === '') continue;
    let fields: string[];
    try {
      fields = csvFields(lines[n]);
    } catch (error) {
      throw new Error(`Line ${n + 1}: ${(error as Error).message}`);
    }
    if (fields.length !== 8) throw new Error(`Line ${n + 1} has ${fields.length} fields, not 8`);
    const [, , levelText, term, see, seeAlso, nemod, code] = fields.map(clean);
    const level = Number(levelText);
    if (!/^\d$/.test(levelText) || level > previous + 1) throw new Error(`Line ${n + 1}: level "${levelText}" does not follow the line above`);
    // Five entries whose title opens with a nonessential modifier ("(somatoform) pain") came out
    // of the flattening with no title; they keep their place so the rows below stay in their tree.
    if (term === '' && nemod === '') throw new Error(`Line ${n + 1} has no term`);
    if (code !== '' && !INDEX_CODE.test(code)) throw new Error(`Line ${n + 1}: "${code}" is not an ICD-10-CM code`);
    rows.push({ level, title: term, see, seeAlso, nemod, code });
    previous = level;
  }
  if (rows.length === 0) throw new Error('The file holds no index entries');
  return rows;
}

interface Node {
  row: Icd10IndexRow;
  children: Map<string, Node>;
}

const key = (s: string) => s.toLowerCase();

/**
 * Every entry that leads to a code, with its path. A reference names a main term and subterms
 * separated by commas ("Influenza, with, respiratory manifestations NEC"); main terms often hold
 * commas themselves ("Disease, diseased") and are also named by their first word. A reference
 * that does not lead to an entry with a code (e.g. "see condition") adds nothing.
 */
export function icd10IndexTerms(rows: readonly Icd10IndexRow[]): Icd10IndexTerm[] {
  const mains = new Map<string, Node>();
  const byFirstWord = new Map<string, Node>();
  const nodes: { node: Node; path: string[] }[] = [];
  const stack: Node[] = [];
  for (const row of rows) {
    const node: Node = { row, children: new Map() };
    stack.length = row.level;
    if (row.level === 0) {
      if (!mains.has(key(row.title))) mains.set(key(row.title), node);
      const first = key(row.title.split(',')[0]);
      if (!byFirstWord.has(first)) byFirstWord.set(first, node);
    } else if (!stack[row.level - 1].children.has(key(row.title))) {
      stack[row.level - 1].children.set(key(row.title), node);
    }
    stack.push(node);
    nodes.push({ node, path: stack.map((n) => n.row.title) });
  }

  const resolve = (reference: string): string => {
    const parts = reference
      .split(',')
      .map((p) => key(clean(p)))
      .filter(Boolean);
    let node: Node | undefined;
    let i = 0;
    for (let k = parts.length; k >= 1 && !node; k--) {
      node = mains.get(parts.slice(0, k).join(', '));
      if (node) i = k;
    }
    if (!node) {
      node = byFirstWord.get(parts[0]);
      i = 1;
    }
    while (node && i < parts.length) {
      let next: Node | undefined;
      for (let k = parts.length - i; k >= 1 && !next; k--) {
        next = node.children.get(parts.slice(i, i + k).join(', '));
        if (next) i += k;
      }
      node = next;
    }
    return node?.row.code ?? '';
  };

  const terms: Icd10IndexTerm[] = [];
  for (const { node, path } of nodes) {
    const { row } = node;
    const code = row.code || (row.see && resolve(row.see)) || (row.seeAlso && resolve(row.seeAlso));
    if (code && row.title) terms.push([path.filter(Boolean).join(PATH_SEPARATOR), row.level, code]);
  }
  return terms;
}
