import mammoth from 'mammoth';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

/** mammoth writes plain semantic html; links other than web, mail and in-page ones are dropped all the same. */
export function safeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const el of Array.from(doc.body.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      if (attr.name.startsWith('on')) el.removeAttribute(attr.name);
      else if ((attr.name === 'href' || attr.name === 'src') && !/^(https?:|mailto:|#|data:image\/)/i.test(attr.value.trim())) el.removeAttribute(attr.name);
    }
    if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE'].includes(el.tagName)) el.remove();
  }
  return doc.body.innerHTML;
}

export default function DocxViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => safeHtml((await mammoth.convertToHtml({ arrayBuffer: await r.arrayBuffer() })).value));
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  return <article className="tw-docx-viewer" aria-label={name} dangerouslySetInnerHTML={{ __html: file.value }} />;
}
