export interface CcdPatient {
  name: string;
  gender?: string;
  birthDate?: string;
  address?: string;
  phone?: string;
  ids: string[];
}

export interface CcdSection {
  id: string;
  title: string;
  /** The section's narrative block (<text>), rendered as html-like elements by the viewer. */
  text: Element | null;
}

export interface CcdDocument {
  title: string;
  patient: CcdPatient | null;
  sections: CcdSection[];
}

const children = (el: Element | null | undefined, name: string) => (el ? Array.from(el.children).filter((c) => c.localName === name) : []);
const child = (el: Element | null | undefined, name: string) => children(el, name)[0] ?? null;
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** HL7 TS: YYYYMMDD[hhmm...] → YYYY-MM-DD. */
function hl7Date(value: string | null | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?/.exec(value ?? '');
  return m ? [m[1], m[2], m[3]].filter(Boolean).join('-') : undefined;
}

/** The parts of a C-CDA the viewer shows; throws when the text is not a ClinicalDocument (the viewer then shows the raw text). */
export function parseCcd(xml: string): CcdDocument {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const root = doc.documentElement;
  if (doc.getElementsByTagName('parsererror').length || root.localName !== 'ClinicalDocument') throw new Error('not a clinical document');
  const role = child(child(root, 'recordTarget'), 'patientRole');
  const person = child(role, 'patient');
  const name = child(person, 'name');
  const patient: CcdPatient | null = person
    ? {
        name: name ? [...children(name, 'given').map(text), ...children(name, 'family').map(text)].filter(Boolean).join(' ') || text(name) : '',
        gender: child(person, 'administrativeGenderCode')?.getAttribute('displayName') ?? child(person, 'administrativeGenderCode')?.getAttribute('code') ?? undefined,
        birthDate: hl7Date(child(person, 'birthTime')?.getAttribute('value')),
        address: children(role, 'addr').map((a) => Array.from(a.children).map(text).filter(Boolean).join(', '))[0],
        phone: children(role, 'telecom').map((t) => t.getAttribute('value') ?? '')[0]?.replace(/^tel:/, ''),
        ids: children(role, 'id').map((i) => i.getAttribute('extension') ?? '').filter(Boolean),
      }
    : null;
  const body = child(child(root, 'component'), 'structuredBody');
  const sections = children(body, 'component')
    .map((c) => child(c, 'section'))
    .filter((s): s is Element => !!s)
    .map((s, i) => ({ id: `ccd-section-${i}`, title: text(child(s, 'title')) || child(s, 'code')?.getAttribute('displayName') || `Section ${i + 1}`, text: child(s, 'text') }));
  return { title: text(child(root, 'title')) || 'Clinical document', patient, sections };
}
