import { createElement, useState, type ReactNode } from 'react';
import { Button } from '../../ui/button.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { parseCcd, type CcdDocument } from './ccd.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

/** The CDA narrative block's elements and the html ones that show them; anything else keeps only its text. */
const NARRATIVE: Record<string, string> = {
  table: 'table', thead: 'thead', tbody: 'tbody', tfoot: 'tfoot', tr: 'tr', th: 'th', td: 'td', caption: 'caption',
  list: 'ul', item: 'li', paragraph: 'p', br: 'br', content: 'span', sub: 'sub', sup: 'sup',
};

function narrative(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  let tag = NARRATIVE[el.localName] ?? 'span';
  if (el.localName === 'list' && el.getAttribute('listType') === 'ordered') tag = 'ol';
  const kids = Array.from(el.childNodes).map(narrative);
  return tag === 'br' ? createElement('br', { key }) : createElement(tag, { key }, ...kids);
}

type Read = { doc: CcdDocument; raw: null } | { doc: null; raw: string };

function read(xml: string): Read {
  try {
    return { doc: parseCcd(xml), raw: null };
  } catch {
    return { doc: null, raw: xml };
  }
}

/** C-CDA: a table of contents, sections that can be moved and hidden, a collapsible patient detail; the raw text when it cannot be read. */
export default function CcdViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => read(await r.text()));
  const [order, setOrder] = useState<string[] | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  if (!file.value.doc) {
    return (
      <pre className="tw-ccd-viewer__raw" tabIndex={0} aria-label={name}>
        {file.value.raw}
      </pre>
    );
  }
  const { doc } = file.value;
  const ids = order ?? doc.sections.map((s) => s.id);
  const byId = new Map(doc.sections.map((s) => [s.id, s]));
  const move = (id: string, by: -1 | 1) => {
    const next = [...ids];
    const at = next.indexOf(id);
    const to = at + by;
    if (to < 0 || to >= next.length) return;
    [next[at], next[to]] = [next[to], next[at]];
    setOrder(next);
  };
  const toggle = (id: string) => {
    const next = new Set(hidden);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setHidden(next);
  };

  return (
    <div className="tw-ccd-viewer">
      <h2 className="tw-ccd-viewer__title">{doc.title}</h2>
      {doc.patient ? (
        <details className="tw-ccd-viewer__patient" open>
          <summary>Patient: {doc.patient.name}</summary>
          <dl>
            {doc.patient.birthDate ? (<><dt>Date of birth</dt><dd>{doc.patient.birthDate}</dd></>) : null}
            {doc.patient.gender ? (<><dt>Gender</dt><dd>{doc.patient.gender}</dd></>) : null}
            {doc.patient.address ? (<><dt>Address</dt><dd>{doc.patient.address}</dd></>) : null}
            {doc.patient.phone ? (<><dt>Phone</dt><dd>{doc.patient.phone}</dd></>) : null}
            {doc.patient.ids.length ? (<><dt>Identifiers</dt><dd>{doc.patient.ids.join(', ')}</dd></>) : null}
          </dl>
        </details>
      ) : null}
      <nav aria-label="Table of contents" className="tw-ccd-viewer__toc">
        <ol>
          {ids.map((id, i) => {
            const section = byId.get(id)!;
            return (
              <li key={id}>
                <label>
                  <input type="checkbox" checked={!hidden.has(id)} onChange={() => toggle(id)} aria-label={`Show ${section.title}`} />
                  <a href={`#${id}`}>{section.title}</a>
                </label>
                <Button size="sm" variant="quiet" aria-label={`Move ${section.title} up`} isDisabled={i === 0} onPress={() => move(id, -1)}>
                  ↑
                </Button>
                <Button size="sm" variant="quiet" aria-label={`Move ${section.title} down`} isDisabled={i === ids.length - 1} onPress={() => move(id, 1)}>
                  ↓
                </Button>
              </li>
            );
          })}
        </ol>
      </nav>
      {ids
        .filter((id) => !hidden.has(id))
        .map((id) => {
          const section = byId.get(id)!;
          return (
            <section key={id} id={id} className="tw-ccd-viewer__section" aria-labelledby={`${id}-title`}>
              <h3 id={`${id}-title`}>{section.title}</h3>
              <div>{section.text ? Array.from(section.text.childNodes).map(narrative) : null}</div>
            </section>
          );
        })}
    </div>
  );
}
