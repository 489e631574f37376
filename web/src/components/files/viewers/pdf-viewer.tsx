import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { fetchFile } from './fetch-file.js';
import { Skeleton } from './skeleton.js';

// The worker is a file of the app's own origin (the CSP allows scripts and workers from 'self' only).
GlobalWorkerOptions.workerSrc = workerUrl;

/** Every page drawn on a canvas as wide as the viewer (spec chart-data §2a: fitted to width). */
export default function PdfViewer({ url, name }: ViewerProps) {
  return <PdfPages source={url} name={name} />;
}

/** A PDF carried inside another file (a C-CDA's nonXMLBody), drawn like a PDF file. */
export function PdfBytesViewer({ data, name }: { data: Uint8Array; name: string }) {
  return <PdfPages source={data} name={name} />;
}

function PdfPages({ source, name }: { source: string | Uint8Array; name: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    let live = true;
    const el = host.current;
    if (!el) return;
    (async () => {
      // pdf.js hands its buffer to the worker, so embedded bytes are copied and stay usable for a redraw.
      const data = typeof source === 'string' ? new Uint8Array(await (await fetchFile(source, { strict: true })).arrayBuffer()) : source.slice();
      const pdf = await getDocument({ data, isEvalSupported: false }).promise;
      el.replaceChildren();
      const width = el.clientWidth || 800;
      for (let n = 1; n <= pdf.numPages && live; n++) {
        const page = await pdf.getPage(n);
        const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
        const ratio = window.devicePixelRatio || 1;
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = '100%';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `${name}, page ${n} of ${pdf.numPages}`);
        el.append(canvas);
        await page.render({ canvasContext: canvas.getContext('2d')!, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
        if (n === 1 && live) setState('ready');
      }
      await pdf.destroy();
    })().catch(() => live && setState('error'));
    return () => {
      live = false;
    };
  }, [source, name]);

  return (
    <>
      {state === 'loading' ? <Skeleton /> : null}
      {state === 'error' ? <PreviewMessage>{FILE_MESSAGES.unablePreview}</PreviewMessage> : null}
      <div ref={host} className="tw-pdf-viewer" data-state={state} />
    </>
  );
}
