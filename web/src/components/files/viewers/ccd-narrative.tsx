import { createElement, Fragment, type MouseEvent, type ReactNode } from 'react';

/**
 * The CDA narrative block's elements and the html ones that show them; anything else keeps only its
 * text. Every element is built here from the document's parts: nothing of the document reaches the
 * page as markup, and only the attributes read below (spans, a checked href) are carried over.
 */
const NARRATIVE: Record<string, string> = {
  table: 'table',
  thead: 'thead',
  tbody: 'tbody',
  tfoot: 'tfoot',
  tr: 'tr',
  th: 'th',
  td: 'td',
  caption: 'caption',
  list: 'ul',
  item: 'li',
  paragraph: 'p',
  br: 'br',
  content: 'span',
  sub: 'sub',
  sup: 'sup',
  footnote: 'small',
  footnoteRef: 'sup',
};

/** Elements whose whitespace between children is layout of the XML, not text (React refuses text there). */
const NO_TEXT = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'list', 'colgroup']);
const DROPPED = new Set(['col', 'colgroup']);

/** styleCode tokens and the classes that show them. */
const STYLES: Record<string, string> = {
  bold: 'tw-ccd-bold',
  italics: 'tw-ccd-italics',
  underline: 'tw-ccd-underline',
  emphasis: 'tw-ccd-italics',
  lrule: 'tw-ccd-lrule',
  rrule: 'tw-ccd-rrule',
  toprule: 'tw-ccd-toprule',
  botrule: 'tw-ccd-botrule',
};

/** A link of the document is followed only to the web (http, https) or inside the document (#id); anything else is text. */
export function safeHref(href: string | null): { external: string } | { internal: string } | null {
  const value = (href ?? '').trim();
  if (value.startsWith('#') && value.length > 1) return { internal: value.slice(1) };
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { external: url.href } : null;
  } catch {
    return null;
  }
}

function span(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 && n <= 1000 ? n : undefined;
}

export interface NarrativeOptions {
  /** Follows a link to an element of the document (its ID), inside the viewer. */
  onInternalLink: (id: string) => void;
}

function render(node: Node, key: number, options: NarrativeOptions, parentTag: string): ReactNode {
  if (node.nodeType === 3 /* text */ || node.nodeType === 4 /* CDATA */) {
    return NO_TEXT.has(parentTag) && !(node.textContent ?? '').trim() ? null : node.textContent;
  }
  if (node.nodeType !== 1 /* element */) return null;
  const el = node as Element;
  const name = el.localName;
  if (DROPPED.has(name)) return null;
  const kids = (as: string) => Array.from(el.childNodes).map((c, i) => render(c, i, options, as));
  const className =
    (el.getAttribute('styleCode') ?? '')
      .split(/\s+/)
      .map((token) => STYLES[token.toLowerCase()])
      .filter(Boolean)
      .join(' ') || undefined;
  // Narrative IDs are targets of links inside the document; kept as data, never as page ids (they repeat across documents).
  const props: Record<string, unknown> = { key, className, 'data-ccd-id': el.getAttribute('ID') ?? undefined };

  if (name === 'br') return createElement('br', { key });
  if (name === 'linkHtml') {
    const href = safeHref(el.getAttribute('href'));
    if (href && 'external' in href) return createElement('a', { ...props, href: href.external, target: '_blank', rel: 'noopener noreferrer' }, ...kids('a'));
    if (href && 'internal' in href) {
      const follow = (event: MouseEvent) => {
        event.preventDefault();
        options.onInternalLink(href.internal);
      };
      // The href stays in-page for assistive technology; the click never reaches the router.
      return createElement('a', { ...props, href: `#${href.internal}`, onClick: follow }, ...kids('a'));
    }
    return createElement('span', props, ...kids('span'));
  }
  if (name === 'renderMultiMedia') return createElement('span', props, '(an image of the document is not shown)');
  if (name === 'list') {
    const tag = el.getAttribute('listType') === 'ordered' ? 'ol' : 'ul';
    const caption = child(el, 'caption');
    const items = Array.from(el.childNodes).filter((c) => c !== caption);
    return createElement(
      Fragment,
      { key },
      caption ? createElement('p', { className: 'tw-ccd-caption' }, ...Array.from(caption.childNodes).map((c, i) => render(c, i, options, 'p'))) : null,
      createElement(tag, props, ...items.map((c, i) => render(c, i, options, 'list'))),
    );
  }
  if (name === 'paragraph' || name === 'item') {
    // A caption inside a paragraph or item is its lead-in, shown bold.
    const tag = NARRATIVE[name]!;
    return createElement(
      tag,
      props,
      ...Array.from(el.childNodes).map((c, i) =>
        c.nodeType === 1 && (c as Element).localName === 'caption' ? createElement('strong', { key: i }, text(c), ' ') : render(c, i, options, tag),
      ),
    );
  }
  if (name === 'table') {
    // A wide table scrolls inside its own box, so the page never scrolls sideways on a phone.
    return createElement(
      'div',
      { key, className: 'tw-ccd-table', tabIndex: 0, role: 'group', 'aria-label': 'Table' },
      createElement('table', { ...props, key: undefined }, ...kids('table')),
    );
  }
  if (name === 'td' || name === 'th') {
    return createElement(name, { ...props, colSpan: span(el.getAttribute('colspan')), rowSpan: span(el.getAttribute('rowspan')) }, ...kids(name));
  }
  if (name === 'content') {
    const revised = el.getAttribute('revised');
    const tag = revised === 'delete' ? 'del' : revised === 'insert' ? 'ins' : 'span';
    return createElement(tag, props, ...kids(tag));
  }
  const tag = NARRATIVE[name] ?? 'span';
  return createElement(tag, props, ...kids(name));
}

const child = (el: Element, name: string) => Array.from(el.children).find((c) => c.localName === name) ?? null;
const text = (node: Node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The narrative block (<text>) of a section as React elements. */
export function narrative(block: Element, options: NarrativeOptions): ReactNode[] {
  return Array.from(block.childNodes).map((c, i) => render(c, i, options, 'text'));
}
