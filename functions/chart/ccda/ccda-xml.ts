import { ValidationError } from '../../lib/errors.js';

/*
 * A C-CDA file read as a plain element tree. The XML parser is loaded with the first C-CDA import
 * (this module is itself loaded through import()), never on the chart Lambda's cold start.
 * A document type declaration is refused before parsing: no external entity is ever fetched and no
 * entity is expanded beyond the five XML predefines and character references.
 */

export interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  /** The element's text and its children, in document order (the narrative block needs both). */
  content: (El | string)[];
}

export const CCDA_MESSAGES = {
  notCcda: 'The file is not a C-CDA document (no ClinicalDocument)',
  notXml: 'The file is not well-formed XML',
  dtd: 'The file declares a document type (DTD), which is not accepted',
  tooLarge: (mb: number) => `The C-CDA file is larger than ${mb} MB`,
} as const;

type FxpNode = Record<string, unknown>;

function toEl(name: string, node: FxpNode): El {
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
  const el: El = { name, attrs: {}, children: [], content: [] };
  for (const [k, v] of Object.entries(attrs)) el.attrs[k] = String(v);
  for (const child of (node[name] as FxpNode[] | undefined) ?? []) {
    const tag = Object.keys(child).find((k) => k !== ':@');
    if (!tag) continue;
    if (tag === '#text') el.content.push(String(child[tag]));
    else if (!tag.startsWith('?') && !tag.startsWith('!')) {
      const c = toEl(tag, child);
      el.children.push(c);
      el.content.push(c);
    }
  }
  return el;
}

/** The document's root element; a 400 in plain words when the file is not XML or declares a DTD. */
export async function parseXml(xml: string): Promise<El> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new ValidationError(CCDA_MESSAGES.dtd, { file: CCDA_MESSAGES.dtd });
  const { XMLParser, XMLValidator } = await import('fast-xml-parser');
  if (XMLValidator.validate(xml) !== true) throw new ValidationError(CCDA_MESSAGES.notXml, { file: CCDA_MESSAGES.notXml });
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: false,
  });
  const nodes = parser.parse(xml) as FxpNode[];
  const rootNode = nodes.find((n) => Object.keys(n).some((k) => k === 'ClinicalDocument'));
  if (!rootNode) throw new ValidationError(CCDA_MESSAGES.notCcda, { file: CCDA_MESSAGES.notCcda });
  return toEl('ClinicalDocument', rootNode);
}

export const kids = (el: El | undefined, name: string): El[] => (el ? el.children.filter((c) => c.name === name) : []);
export const kid = (el: El | undefined, name: string): El | undefined => el?.children.find((c) => c.name === name);
/** The element at a path of child names (the first match at each step). */
export const at = (el: El | undefined, ...path: string[]): El | undefined => path.reduce<El | undefined>((e, n) => kid(e, n), el);
/** All descendants of a name, in document order. */
export function descendants(el: El | undefined, name: string, out: El[] = []): El[] {
  for (const c of el?.children ?? []) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
/** The element's text, spaces collapsed. */
export function textOf(el: El | undefined): string {
  if (!el) return '';
  const parts: string[] = [];
  const walk = (e: El) => {
    for (const c of e.content) {
      if (typeof c === 'string') parts.push(c);
      else walk(c);
    }
  };
  walk(el);
  return parts.join('').replace(/\s+/g, ' ').trim();
}
