// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CCD_MESSAGES, flattenSections, hl7Date, identifierKind, NotCcdError, parseCcd, type CcdDocument } from './ccd.js';
import { narrative, safeHref } from './ccd-narrative.js';
import { CcdDocumentView } from './ccd-viewer.js';

const FIXTURES = join(process.cwd(), 'test/fixtures/ccda-viewer');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** What the viewer shows of a document, as a DOM to query. */
function shown(doc: CcdDocument, name = 'doc.xml'): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderToStaticMarkup(<CcdDocumentView doc={doc} name={name} />);
  return host;
}

const headings = (host: HTMLElement) =>
  Array.from(host.querySelectorAll('h2, h3, h4, h5, h6, [role=heading]')).map((h) => `${h.getAttribute('aria-level') ?? h.tagName.slice(1)} ${h.textContent}`);

describe('C-CDA header', () => {
  const doc = parseCcd(fixture('referral-nested.xml'));

  it('shows the date as the spec writes dates, every author, the source organisation and what each identifier is', () => {
    expect(doc.date).toBe('03/14/2026 9:30 AM (UTC-05:00)');
    expect(doc.authors).toEqual(['Dr. Amos Reyes, Harbor Family Medicine', 'ChartWorks, ChartWorks EHR 9']);
    expect(doc.custodian).toBe('Harbor Health Partners');
    expect(doc.patient).toMatchObject({ name: 'Elsie May Thornbury', gender: 'Female', birthDate: '07/06/1941', phone: '+1(207)555-0199' });
    // The SSN shows its last four digits only; a nullFlavor id is no identifier.
    expect(doc.patient!.ids).toEqual([
      { kind: 'Identifier (root 2.16.840.1.113883.19.5)', value: 'MRN-88120' },
      { kind: 'SSN', value: '•••-••-3456' },
    ]);
    const host = shown(doc);
    const facts = Array.from(host.querySelectorAll('.tw-ccd-viewer__facts div')).map((d) => d.textContent);
    expect(facts).toEqual(
      expect.arrayContaining([
        'Date03/14/2026 9:30 AM (UTC-05:00)',
        'AuthorsDr. Amos Reyes, Harbor Family Medicine; ChartWorks, ChartWorks EHR 9',
        'SourceHarbor Health Partners',
        'SSN•••-••-3456',
      ]),
    );
  });

  it('names identifier kinds from their assigning authority', () => {
    expect(identifierKind('2.16.840.1.113883.4.1')).toBe('SSN');
    expect(identifierKind('2.16.840.1.113883.4.6')).toBe('NPI');
    expect(identifierKind('2.16.840.1.113883.4.3.23')).toBe("Driver's licence");
    expect(identifierKind('1.2.3.4')).toBe('Identifier (root 1.2.3.4)');
    expect(hl7Date('2026')).toBe('2026');
    expect(hl7Date('202603')).toBe('03/2026');
    expect(hl7Date('20260314173000')).toBe('03/14/2026 5:30 PM');
    expect(hl7Date('not a date')).toBeUndefined();
  });
});

describe('C-CDA sections', () => {
  const doc = parseCcd(fixture('referral-nested.xml'));

  it('renders nested subsections under their section with heading levels by depth', () => {
    expect(flattenSections(doc.sections).map((s) => `${s.depth} ${s.title}`)).toEqual([
      '0 Reason for referral',
      '0 Allergies',
      '0 Medications',
      '0 Physical examination',
      '1 Skin',
      '2 Pressure ulcer finding',
      // No title: the section code's name, else its place.
      '0 Section 5',
    ]);
    const host = shown(doc);
    expect(headings(host)).toEqual([
      '2 Referral to wound care',
      '3 Reason for referral',
      '3 Allergies',
      '3 Medications',
      '3 Physical examination',
      '4 Skin',
      '5 Pressure ulcer finding',
      '3 Section 5',
    ]);
    const ulcer = host.querySelector('#ccd-section-3-0-0')!;
    expect(ulcer.closest('#ccd-section-3-0')).not.toBeNull();
    expect(ulcer.textContent).toContain('Sacral pressure ulcer, stage 3');
    // The contents list every section, the nested ones under their parent.
    const toc = host.querySelector('nav[aria-label="Table of contents"]')!;
    expect(Array.from(toc.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
      'Reason for referral',
      'Allergies',
      'Medications',
      'Physical examination',
      'Skin',
      'Pressure ulcer finding',
      'Section 5',
    ]);
    expect(toc.querySelector('a[href="#ccd-section-3-0-0"]')!.closest('li')!.parentElement!.closest('li')!.textContent).toContain('Skin');
  });

  it('keeps spans, styles, lists, paragraphs, breaks and footnote marks of narrative tables', () => {
    const host = shown(doc);
    const allergies = host.querySelector('#ccd-section-1')!;
    expect(allergies.querySelector('caption')!.textContent).toBe('Allergies and reactions');
    expect(allergies.querySelector('td[rowspan="2"]')!.textContent).toBe('Rash and hives');
    expect(allergies.querySelector('td[colspan="2"]')!.textContent).toBe('Reviewed with the patient1 on H2O intake');
    expect(allergies.querySelector('.tw-ccd-bold')!.textContent).toBe('Sulfa drugs');
    expect(allergies.querySelector('.tw-ccd-italics')!.textContent).toBe('Rash');
    expect(allergies.querySelector('.tw-ccd-underline')!.textContent).toBe('hives');
    expect(allergies.querySelector('sup')!.textContent).toBe('1');
    expect(allergies.querySelector('sub')!.textContent).toBe('2');
    expect(allergies.querySelectorAll('tbody tr')).toHaveLength(3);
    const reason = host.querySelector('#ccd-section-0 p')!;
    expect(reason.querySelector('br')).not.toBeNull();
    expect(reason.querySelector('.tw-ccd-bold')!.textContent).toBe('six weeks');
    const skin = host.querySelector('#ccd-section-3-0')!;
    expect(skin.querySelector('.tw-ccd-caption')!.textContent).toBe('Findings');
    expect(Array.from(skin.querySelectorAll(':scope > .tw-ccd-viewer__narrative ol > li')).map((li) => li.textContent)).toEqual([
      'Dry skin on both shins',
      'See the ulcer below',
    ]);
    expect(host.querySelector('#ccd-section-4 del')!.textContent).toBe('Home care only.');
  });

  it('follows links only to the web or inside the document, and never lets document markup through', () => {
    const host = shown(doc);
    const links = Array.from(host.querySelectorAll('.tw-ccd-viewer__narrative a')).map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')]);
    expect(links).toEqual([
      ['the ulcer below', '#ulcer-1', null],
      ['staging guide', 'https://example.org/wound-staging', 'noopener noreferrer'],
    ]);
    expect(host.textContent).toContain('run me');
    expect(host.innerHTML).not.toContain('javascript:');
    expect(host.innerHTML).not.toContain('data:text');
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('//evil.example/x')).toBeNull();
    expect(safeHref('http://example.org/a')).toEqual({ external: 'http://example.org/a' });

    const block = new DOMParser().parseFromString(
      '<text xmlns="urn:hl7-org:v3"><script>alert(1)</script><content onclick="alert(2)" styleCode="Bold">&lt;img src=x onerror=alert(3)&gt;</content><iframe src="https://evil.example"/></text>',
      'application/xml',
    ).documentElement;
    const out = document.createElement('div');
    out.innerHTML = renderToStaticMarkup(<>{narrative(block, { onInternalLink: () => undefined })}</>);
    expect(out.querySelector('script, iframe, img, [onclick]')).toBeNull();
    expect(out.textContent).toBe('alert(1)<img src=x onerror=alert(3)>');
  });

  it('says a section without text has none, rather than showing an empty heading', () => {
    const empty = parseCcd(fixture('referral-nested.xml').replace('<text>No information about medications</text>', '<text/>'));
    expect(shown(empty).querySelector('#ccd-section-2')!.textContent).toBe(`Medications${CCD_MESSAGES.noNarrative}`);
  });
});

describe('C-CDA unstructured bodies (nonXMLBody)', () => {
  it('carries an embedded PDF as its bytes for the PDF viewer', () => {
    const doc = parseCcd(fixture('embedded-pdf.xml'));
    expect(doc.sections).toEqual([]);
    expect(doc.embedded?.kind).toBe('pdf');
    const data = (doc.embedded as { data: Uint8Array }).data;
    expect(Buffer.from(data).equals(readFileSync(join(process.cwd(), 'test/fixtures/files/lab-report.pdf')))).toBe(true);
  });

  it('shows embedded text as preformatted text', () => {
    const doc = parseCcd(fixture('embedded-text.xml'));
    expect(doc.embedded).toEqual({ kind: 'text', text: 'SURGICAL CONSULT\n\nPatient seen for a sacral wound.\nPlan:   debridement next week.\n' });
    const host = shown(doc);
    expect(host.querySelector('pre')!.textContent).toContain('Plan:   debridement next week.');
    expect(headings(host)).toEqual(['2 Surgical consult', '3 Document content']);
  });

  it('says when the content is a file outside the document', () => {
    const doc = parseCcd(fixture('embedded-text.xml').replace(/<text mediaType[\s\S]*?<\/text>/, '<text><reference value="UD_sample.pdf"/></text>'));
    expect(shown(doc).textContent).toContain(CCD_MESSAGES.externalReference('UD_sample.pdf'));
  });
});

describe('files that are not C-CDA', () => {
  it('says in plain words why: other XML, broken XML', () => {
    expect(() => parseCcd(fixture('not-ccda.xml'))).toThrow(new NotCcdError(CCD_MESSAGES.notCda('invoice')));
    expect(() => parseCcd(readFileSync(join(process.cwd(), 'test/fixtures/files/broken-ccd.xml'), 'utf8'))).toThrow(CCD_MESSAGES.brokenXml);
    expect(() => parseCcd('')).toThrow(CCD_MESSAGES.brokenXml);
  });
});

/**
 * Every section and subsection title of real documents appears in the viewer. CCDA_REAL_DIR points
 * at published C-CDA documents when they are at hand; otherwise our own fixtures stand in.
 */
describe('every section of a document is shown', () => {
  const dir = process.env.CCDA_REAL_DIR ?? FIXTURES;
  const files = readdirSync(dir).filter((f) => /\.xml$/i.test(f));
  for (const file of files) {
    it(file, () => {
      let doc: CcdDocument;
      try {
        doc = parseCcd(readFileSync(join(dir, file), 'utf8'));
      } catch (error) {
        // Not a clinical document: the viewer says why instead.
        expect(error).toBeInstanceOf(NotCcdError);
        return;
      }
      const host = shown(doc, file);
      const titles = Array.from(host.querySelectorAll('.tw-ccd-viewer__body .tw-ccd-viewer__heading')).map((h) => h.textContent);
      const expected = flattenSections(doc.sections).map((s) => s.title);
      expect(titles.slice(0, expected.length)).toEqual(expected);
      const xml = new DOMParser().parseFromString(readFileSync(join(dir, file), 'utf8'), 'application/xml');
      expect(expected).toHaveLength(Array.from(xml.getElementsByTagName('*')).filter((el) => el.localName === 'section').length);
    });
  }
});
