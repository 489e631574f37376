import { createElement, lazy, Suspense, useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Button } from '../../ui/button.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { CCD_MESSAGES, NotCcdError, parseCcd, type CcdDocument, type CcdEmbedded, type CcdSection } from './ccd.js';
import { narrative } from './ccd-narrative.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

// An embedded PDF is drawn by the PDF viewer, whose library is fetched only when such a document opens.
const PdfBytesViewer = lazy(() => import('./pdf-viewer.js').then((m) => ({ default: m.PdfBytesViewer })));

type Read = { doc: CcdDocument } | { reason: string; raw: string };

function read(xml: string): Read {
  try {
    return { doc: parseCcd(xml) };
  } catch (error) {
    return { reason: error instanceof NotCcdError ? error.message : CCD_MESSAGES.brokenXml, raw: xml };
  }
}

/** Sections deeper than h6 keep their level for assistive technology. */
function Heading({ level, id, children }: { level: number; id: string; children: ReactNode }) {
  if (level <= 6) return createElement(`h${level}`, { id, tabIndex: -1, className: 'tw-ccd-viewer__heading' }, children);
  return (
    <div role="heading" aria-level={level} id={id} tabIndex={-1} className="tw-ccd-viewer__heading">
      {children}
    </div>
  );
}

function SectionView({ section, onInternalLink }: { section: CcdSection; onInternalLink: (id: string) => void }) {
  const hasText = !!section.text && !!section.text.textContent?.trim();
  return (
    <section id={section.id} className="tw-ccd-viewer__section" data-depth={section.depth} aria-labelledby={`${section.id}-title`}>
      <Heading level={3 + section.depth} id={`${section.id}-title`}>
        {section.title}
      </Heading>
      {hasText ? (
        <div className="tw-ccd-viewer__narrative">{narrative(section.text!, { onInternalLink })}</div>
      ) : section.subsections.length ? null : (
        <p className="tw-ccd-viewer__empty">{CCD_MESSAGES.noNarrative}</p>
      )}
      {section.subsections.map((sub) => (
        <SectionView key={sub.id} section={sub} onInternalLink={onInternalLink} />
      ))}
    </section>
  );
}

function TocLinks({ sections, onGo }: { sections: readonly CcdSection[]; onGo: (id: string) => (event: MouseEvent) => void }) {
  if (!sections.length) return null;
  return (
    <ol>
      {sections.map((s) => (
        <li key={s.id}>
          <a href={`#${s.id}`} onClick={onGo(s.id)}>
            {s.title}
          </a>
          <TocLinks sections={s.subsections} onGo={onGo} />
        </li>
      ))}
    </ol>
  );
}

function Embedded({ embedded, name, title }: { embedded: CcdEmbedded; name: string; title: string }) {
  switch (embedded.kind) {
    case 'pdf':
      return (
        <Suspense fallback={<Skeleton />}>
          <PdfBytesViewer data={embedded.data} name={`${name}, embedded PDF`} />
        </Suspense>
      );
    case 'image':
      return <img className="tw-image-viewer" src={`data:${embedded.mediaType};base64,${embedded.base64}`} alt={`${title}, embedded image`} />;
    case 'text':
      return <pre className="tw-ccd-viewer__pre">{embedded.text}</pre>;
    case 'reference':
      return <p className="tw-ccd-viewer__empty">{CCD_MESSAGES.externalReference(embedded.reference)}</p>;
    case 'unsupported':
      return <p className="tw-ccd-viewer__empty">{`${CCD_MESSAGES.unsupportedEmbedded(embedded.mediaType)} ${CCD_MESSAGES.download}`}</p>;
  }
}

function NotCcd({ reason, raw, url, name }: { reason: string; raw: string; url: string; name: string }) {
  return (
    <div className="tw-ccd-viewer__not-ccd">
      <PreviewMessage>
        {reason} {CCD_MESSAGES.download}
      </PreviewMessage>
      <p>
        <a href={url} download={name} target="_blank" rel="noopener noreferrer">
          Download {name}
        </a>
      </p>
      <details>
        <summary>Show the file&apos;s text</summary>
        <pre className="tw-ccd-viewer__raw">{raw}</pre>
      </details>
    </div>
  );
}

/**
 * C-CDA: the document's date, authors and source, a collapsible patient detail, a table of contents
 * beside the sections (top-level sections can be moved and hidden), every subsection at its depth,
 * and the embedded content of an unstructured document. A file that is not a C-CDA says why.
 */
export default function CcdViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => read(await r.text()));
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  if (!('doc' in file.value)) return <NotCcd reason={file.value.reason} raw={file.value.raw} url={url} name={name} />;
  return <CcdDocumentView doc={file.value.doc} name={name} />;
}

/** A read clinical document; `name` is the file's, for the embedded content's label. */
export function CcdDocumentView({ doc, name }: { doc: CcdDocument; name: string }) {
  const root = useRef<HTMLDivElement>(null);
  const [order, setOrder] = useState<string[] | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState<string | null>(null);

  // After the section is shown (it may have been hidden), its heading reaches the top and takes focus.
  useEffect(() => {
    if (!target) return;
    const heading = root.current?.querySelector<HTMLElement>(`#${CSS.escape(`${target}-title`)}`);
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
    setTarget(null);
  }, [target, hidden]);

  const followNarrativeLink = useCallback((id: string) => {
    const el = root.current?.querySelector<HTMLElement>(`[data-ccd-id="${CSS.escape(id)}"]`);
    if (!el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.scrollIntoView({ block: 'start' });
    el.focus({ preventScroll: true });
  }, []);

  const ids = order ?? doc.sections.map((s) => s.id);
  const byId = new Map(doc.sections.map((s) => [s.id, s]));
  const move = (id: string, by: -1 | 1) => {
    const next = [...ids];
    const at = next.indexOf(id);
    const to = at + by;
    if (to < 0 || to >= next.length) return;
    [next[at], next[to]] = [next[to]!, next[at]!];
    setOrder(next);
  };
  const toggle = (id: string) => {
    const next = new Set(hidden);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setHidden(next);
  };
  // A table-of-contents link stays inside the viewer: the app's router owns the URL's hash.
  const go = (id: string) => (event: MouseEvent) => {
    event.preventDefault();
    const top = id.split('-').slice(0, 3).join('-');
    if (hidden.has(top)) toggle(top);
    setTarget(id);
  };
  const { patient } = doc;

  return (
    <div className="tw-ccd-viewer" ref={root}>
      <div className="tw-ccd-viewer__header">
        <h2 className="tw-ccd-viewer__title">{doc.title}</h2>
        <dl className="tw-ccd-viewer__facts">
          {doc.date ? (
            <div>
              <dt>Date</dt>
              <dd>{doc.date}</dd>
            </div>
          ) : null}
          {doc.authors.length ? (
            <div>
              <dt>{doc.authors.length > 1 ? 'Authors' : 'Author'}</dt>
              <dd>{doc.authors.join('; ')}</dd>
            </div>
          ) : null}
          {doc.custodian ? (
            <div>
              <dt>Source</dt>
              <dd>{doc.custodian}</dd>
            </div>
          ) : null}
        </dl>
        {patient ? (
          <details className="tw-ccd-viewer__patient" open>
            <summary>Patient: {patient.name || 'name not given'}</summary>
            <dl className="tw-ccd-viewer__facts">
              {patient.birthDate ? (
                <div>
                  <dt>Date of birth</dt>
                  <dd>{patient.birthDate}</dd>
                </div>
              ) : null}
              {patient.gender ? (
                <div>
                  <dt>Gender</dt>
                  <dd>{patient.gender}</dd>
                </div>
              ) : null}
              {patient.address ? (
                <div>
                  <dt>Address</dt>
                  <dd>{patient.address}</dd>
                </div>
              ) : null}
              {patient.phone ? (
                <div>
                  <dt>Phone</dt>
                  <dd>{patient.phone}</dd>
                </div>
              ) : null}
              {patient.ids.map((id, i) => (
                <div key={i}>
                  <dt>{id.kind}</dt>
                  <dd>{id.value}</dd>
                </div>
              ))}
            </dl>
          </details>
        ) : null}
      </div>
      <div className={doc.sections.length ? 'tw-ccd-viewer__layout' : undefined}>
        {doc.sections.length ? (
          <nav aria-label="Table of contents" className="tw-ccd-viewer__toc">
            <ol>
              {ids.map((id, i) => {
                const section = byId.get(id)!;
                return (
                  <li key={id}>
                    <div className="tw-ccd-viewer__toc-entry">
                      <input type="checkbox" checked={!hidden.has(id)} onChange={() => toggle(id)} aria-label={`Show ${section.title}`} />
                      <a href={`#${id}`} onClick={go(id)}>
                        {section.title}
                      </a>
                      <Button size="sm" variant="quiet" aria-label={`Move ${section.title} up`} isDisabled={i === 0} onPress={() => move(id, -1)}>
                        ↑
                      </Button>
                      <Button size="sm" variant="quiet" aria-label={`Move ${section.title} down`} isDisabled={i === ids.length - 1} onPress={() => move(id, 1)}>
                        ↓
                      </Button>
                    </div>
                    <TocLinks sections={section.subsections} onGo={go} />
                  </li>
                );
              })}
            </ol>
          </nav>
        ) : null}
        <div className="tw-ccd-viewer__body">
          {ids
            .filter((id) => !hidden.has(id))
            .map((id) => (
              <SectionView key={id} section={byId.get(id)!} onInternalLink={followNarrativeLink} />
            ))}
          {doc.embedded ? (
            <section className="tw-ccd-viewer__section" aria-labelledby="ccd-embedded-title">
              <h3 id="ccd-embedded-title" className="tw-ccd-viewer__heading">
                Document content
              </h3>
              <Embedded embedded={doc.embedded} name={name} title={doc.title} />
            </section>
          ) : null}
          {!doc.sections.length && !doc.embedded ? <p className="tw-ccd-viewer__empty">{CCD_MESSAGES.emptyBody}</p> : null}
        </div>
      </div>
    </div>
  );
}
