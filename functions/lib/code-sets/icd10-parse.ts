/**
 * Reads the two official CMS/NCHS ICD-10-CM text layouts:
 * - codes (`icd10cm_codes_YYYY.txt`): code without its dot padded to 7, one space, long description;
 *   billable codes only;
 * - order (`icd10cm_order_YYYY.txt`): order number (5), space, code (7), space, header flag
 *   (0 header / 1 billable), space, short description (60), space, long description.
 * Only billable codes are kept: a diagnosis on a chart carries a billable code.
 */
export type Icd10Layout = 'codes' | 'order';

export interface ParsedIcd10 {
  layout: Icd10Layout;
  entries: [ident: string, description: string][];
}

const ORDER_LINE = /^\d{5} [A-Z0-9][A-Z0-9 ]{6} [01] /;
const CODE = /^[A-Z][0-9A-Z]{2,6}$/;

export function detectIcd10Layout(text: string): Icd10Layout {
  const first = text.split('\n', 20).find((l) => l.trim() !== '') ?? '';
  if (ORDER_LINE.test(first)) return 'order';
  if (CODE.test(first.slice(0, 7).trim()) && first.length > 8) return 'codes';
  throw new Error('Not an ICD-10-CM codes or order file: the first line matches neither layout');
}

export function parseIcd10(text: string): ParsedIcd10 {
  const layout = detectIcd10Layout(text);
  const entries: [string, string][] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.trim() === '') continue;
    let ident: string;
    let description: string;
    if (layout === 'order') {
      if (!ORDER_LINE.test(line)) throw new Error(`Line ${n + 1} does not follow the order layout`);
      if (line[14] !== '1') continue;
      ident = line.slice(6, 13).trim();
      description = line.slice(77).trim() || line.slice(16, 76).trim();
    } else {
      ident = line.slice(0, 7).trim();
      description = line.slice(8).trim();
    }
    if (!CODE.test(ident)) throw new Error(`Line ${n + 1}: "${ident}" is not an ICD-10-CM code`);
    entries.push([ident, description]);
  }
  if (entries.length === 0) throw new Error('The file holds no billable codes');
  return { layout, entries };
}

/** The fiscal year named in an official file name (icd10cm_codes_2027.txt, icd10cm-order-2027.txt). */
export function icd10YearFromFileName(name: string): number | undefined {
  const m = /icd10cm[_-](?:codes|order)[_-](\d{4})/i.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** E119 → E11.9; codes of three characters have no dot. */
export const dottedIcd10 = (ident: string) => (ident.length > 3 ? `${ident.slice(0, 3)}.${ident.slice(3)}` : ident);
