export interface CcdIdentifier {
  /** What the identifier is (SSN, NPI, …), or "Identifier (root …)" when its assigning authority is not a known one. */
  kind: string;
  value: string;
}

export interface CcdPatient {
  name: string;
  gender?: string;
  birthDate?: string;
  address?: string;
  phone?: string;
  ids: CcdIdentifier[];
}

export interface CcdSection {
  id: string;
  title: string;
  /** 0 for a section of the body, 1 for a subsection of it, and so on. */
  depth: number;
  /** The section's narrative block (<text>), rendered as html-like elements by the viewer. */
  text: Element | null;
  subsections: CcdSection[];
}

/** What a nonXMLBody carries: a PDF or other file in base64, plain text, or a reference to a file outside this one. */
export type CcdEmbedded =
  | { kind: 'pdf'; data: Uint8Array }
  | { kind: 'image'; mediaType: string; base64: string }
  | { kind: 'text'; text: string }
  | { kind: 'reference'; reference: string }
  | { kind: 'unsupported'; mediaType: string };

export interface CcdDocument {
  title: string;
  /** effectiveTime as the spec shows dates (MM/DD/YYYY, h:mm A). */
  date?: string;
  authors: string[];
  /** The organisation that keeps the document (custodian). */
  custodian?: string;
  patient: CcdPatient | null;
  sections: CcdSection[];
  embedded: CcdEmbedded | null;
}

/** Why a file is not shown as a clinical document, in plain words. */
export const CCD_MESSAGES = {
  brokenXml: 'This file cannot be shown as a clinical document: its XML is damaged or incomplete, so it cannot be read.',
  notCda: (root: string) => `This file is XML but not a clinical document (C-CDA): it starts with <${root}> where a C-CDA starts with <ClinicalDocument>.`,
  download: 'Download the file to open it in another program.',
  noNarrative: 'This section has no text.',
  externalReference: (ref: string) => `The document's content is a separate file (${ref}) that is not inside this file.`,
  unsupportedEmbedded: (type: string) => `The document's content is embedded as ${type}, which cannot be shown here.`,
  emptyBody: 'This document has no sections.',
} as const;

export class NotCcdError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/**
 * Assigning authorities (id/@root) of identifiers a patient's record commonly carries. Roots under
 * 2.16.840.1.113883.4.3 are US state driver's licences, under 2.16.840.1.113883.4.330 passports.
 */
const ID_KINDS: Record<string, string> = {
  '2.16.840.1.113883.4.1': 'SSN',
  '2.16.840.1.113883.4.6': 'NPI',
  '2.16.840.1.113883.4.572': 'Medicare HICN',
  '2.16.840.1.113883.4.927': 'Medicare MBI',
  '2.16.840.1.113883.4.2': 'Taxpayer ID',
  '2.16.840.1.113883.4.4': 'Employer ID',
};

export function identifierKind(root: string): string {
  if (ID_KINDS[root]) return ID_KINDS[root];
  if (root.startsWith('2.16.840.1.113883.4.3.')) return "Driver's licence";
  if (root.startsWith('2.16.840.1.113883.4.330.')) return 'Passport';
  return `Identifier (root ${root})`;
}

const children = (el: Element | null | undefined, name: string) => (el ? Array.from(el.children).filter((c) => c.localName === name) : []);
const child = (el: Element | null | undefined, name: string) => children(el, name)[0] ?? null;
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const path = (el: Element | null | undefined, ...names: string[]) => names.reduce<Element | null>((at, name) => child(at, name), el ?? null);

/** HL7 TS (YYYYMMDD[hhmm[ss]][±zzzz]) → MM/DD/YYYY[ h:mm A], the spec's display; the zone is kept as written. */
export function hl7Date(value: string | null | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?(?:(\d{2})(\d{2})?(?:\d{2}(?:\.\d+)?)?)?([+-]\d{4})?$/.exec((value ?? '').trim());
  if (!m) return undefined;
  const [, year, month, day, hour, minute, zone] = m;
  const date = day ? `${month}/${day}/${year}` : month ? `${month}/${year}` : year!;
  if (!hour) return date;
  const h = Number(hour);
  const time = `${h % 12 || 12}:${minute ?? '00'} ${h < 12 ? 'AM' : 'PM'}`;
  return `${date} ${time}${zone ? ` (UTC${zone.slice(0, 3)}:${zone.slice(3)})` : ''}`;
}

function personName(name: Element | null): string {
  if (!name) return '';
  const parts = [...children(name, 'prefix'), ...children(name, 'given'), ...children(name, 'family'), ...children(name, 'suffix')].map(text).filter(Boolean);
  return parts.join(' ') || text(name);
}

function identifiers(owner: Element | null): CcdIdentifier[] {
  return children(owner, 'id').flatMap((id) => {
    const root = id.getAttribute('root') ?? '';
    const extension = id.getAttribute('extension');
    if (id.getAttribute('nullFlavor') || (!root && !extension)) return [];
    // An id with a root and no extension is the identifier itself (a UUID or OID), not issued by an authority.
    if (!extension) return [{ kind: 'Identifier', value: root }];
    const kind = identifierKind(root);
    // An SSN shows its last four digits only: enough to match a record, not enough to misuse.
    const value = kind === 'SSN' ? `•••-••-${extension.replace(/\D/g, '').slice(-4)}` : extension;
    return [{ kind, value }];
  });
}

function authorName(author: Element): string {
  const assigned = child(author, 'assignedAuthor');
  const person = personName(path(assigned, 'assignedPerson', 'name'));
  const device = path(assigned, 'assignedAuthoringDevice');
  const who = person || [text(child(device, 'manufacturerModelName')), text(child(device, 'softwareName'))].filter(Boolean).join(', ');
  const org = text(path(assigned, 'representedOrganization', 'name'));
  return [who, org && org !== who ? org : ''].filter(Boolean).join(', ');
}

function readSections(parent: Element | null, idPrefix: string, depth: number): CcdSection[] {
  return children(parent, 'component')
    .map((c) => child(c, 'section'))
    .filter((s): s is Element => !!s)
    .map((s, i) => {
      const id = `${idPrefix}-${i}`;
      return {
        id,
        title: text(child(s, 'title')) || child(s, 'code')?.getAttribute('displayName') || `Section ${i + 1}`,
        depth,
        text: child(s, 'text'),
        subsections: readSections(s, id, depth + 1),
      };
    });
}

function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function readEmbedded(body: Element): CcdEmbedded {
  const content = child(body, 'text');
  const reference = child(content, 'reference')?.getAttribute('value');
  if (reference) return { kind: 'reference', reference };
  const mediaType = (content?.getAttribute('mediaType') ?? 'text/plain').toLowerCase();
  const b64 = content?.getAttribute('representation') === 'B64';
  const raw = content?.textContent ?? '';
  if (mediaType === 'application/pdf' && b64) return { kind: 'pdf', data: base64Bytes(raw) };
  if (/^image\/(png|jpeg|gif)$/.test(mediaType) && b64) return { kind: 'image', mediaType, base64: raw.replace(/\s+/g, '') };
  if (mediaType === 'text/plain') return { kind: 'text', text: b64 ? new TextDecoder().decode(base64Bytes(raw)) : raw.replace(/^\s*\n|\s+$/g, '') };
  return { kind: 'unsupported', mediaType };
}

/** The parts of a C-CDA the viewer shows; throws NotCcdError, with the reason in plain words, when the text is not a ClinicalDocument. */
export function parseCcd(xml: string): CcdDocument {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const root = doc.documentElement;
  if (!root || doc.getElementsByTagName('parsererror').length) throw new NotCcdError(CCD_MESSAGES.brokenXml);
  if (root.localName !== 'ClinicalDocument') throw new NotCcdError(CCD_MESSAGES.notCda(root.localName));
  const role = path(root, 'recordTarget', 'patientRole');
  const person = child(role, 'patient');
  const gender = child(person, 'administrativeGenderCode');
  const patient: CcdPatient | null = person
    ? {
        name: personName(child(person, 'name')),
        gender:
          gender?.getAttribute('displayName') ??
          ({ F: 'Female', M: 'Male', UN: 'Undifferentiated' } as Record<string, string>)[gender?.getAttribute('code') ?? ''] ??
          gender?.getAttribute('code') ??
          undefined,
        birthDate: hl7Date(child(person, 'birthTime')?.getAttribute('value')),
        address: children(role, 'addr').map((a) => Array.from(a.children).map(text).filter(Boolean).join(', '))[0] || undefined,
        phone: children(role, 'telecom')
          .map((t) => t.getAttribute('value') ?? '')
          .find((v) => v.startsWith('tel:'))
          ?.replace(/^tel:/, ''),
        ids: identifiers(role),
      }
    : null;
  const authors = [...new Set(children(root, 'author').map(authorName).filter(Boolean))];
  const custodian = text(path(root, 'custodian', 'assignedCustodian', 'representedCustodianOrganization', 'name')) || undefined;
  const component = child(root, 'component');
  const structured = child(component, 'structuredBody');
  const nonXml = child(component, 'nonXMLBody');
  return {
    title: text(child(root, 'title')) || child(root, 'code')?.getAttribute('displayName') || 'Clinical document',
    date: hl7Date(child(root, 'effectiveTime')?.getAttribute('value')),
    authors,
    custodian,
    patient,
    sections: readSections(structured, 'ccd-section', 0),
    embedded: nonXml ? readEmbedded(nonXml) : null,
  };
}

/** Every section and subsection, depth first: the order the viewer shows them in. */
export function flattenSections(sections: readonly CcdSection[]): CcdSection[] {
  return sections.flatMap((s) => [s, ...flattenSections(s.subsections)]);
}
