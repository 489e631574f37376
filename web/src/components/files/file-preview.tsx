import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { FILE_MESSAGES, unsupportedType } from '../../../../shared/files/drive.js';
import { fileExtension } from '../../../../shared/notes/files.js';
import { signedFileUrl } from '../../lib/drive.js';
import { viewerKind, type ViewerKind } from './viewer-kind.js';
import { Skeleton } from './viewers/skeleton.js';
import { PreviewMessage, type ViewerProps } from './viewers/viewer-common.js';

/** Each viewer (and its library) is its own chunk, fetched only when a file of its type opens. */
const VIEWERS: Record<Exclude<ViewerKind, 'unsupported'>, ComponentType<ViewerProps>> = {
  ccd: lazy(() => import('./viewers/ccd-viewer.js')),
  csv: lazy(() => import('./viewers/csv-viewer.js')),
  sheet: lazy(() => import('./viewers/sheet-viewer.js')),
  image: lazy(() => import('./viewers/image-viewer.js')),
  heic: lazy(() => import('./viewers/heic-viewer.js')),
  pdf: lazy(() => import('./viewers/pdf-viewer.js')),
  docx: lazy(() => import('./viewers/docx-viewer.js')),
  audio: lazy(() => import('./viewers/media-viewer.js').then((m) => ({ default: m.AudioViewer }))),
  video: lazy(() => import('./viewers/media-viewer.js').then((m) => ({ default: m.VideoViewer }))),
  ics: lazy(() => import('./viewers/ics-viewer.js')),
};

/** A viewer that throws (a library failing on a damaged file) shows the spec's message instead of breaking the window. */
class ViewerBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <PreviewMessage>{FILE_MESSAGES.unablePreview}</PreviewMessage> : this.props.children;
  }
}

/** The previewer of spec chart-data §2a: signs the file's URL, then the viewer for its type shows it. */
export function FilePreview({ fileKey, name }: { fileKey: string; name: string }) {
  const extension = fileExtension(name);
  const kind = viewerKind(extension);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (kind === 'unsupported') return;
    let live = true;
    setUrl(null);
    setFailed(false);
    signedFileUrl(fileKey).then(
      (signed) => live && setUrl(signed),
      () => {
        // Spec chart-data §8: logged only; the key (a patient's file name) stays out of the log.
        console.error('Failed to get or convert signed URL');
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [fileKey, kind]);

  if (kind === 'unsupported') return <PreviewMessage>{unsupportedType(extension || 'file')}</PreviewMessage>;
  if (failed) return <PreviewMessage>{FILE_MESSAGES.unablePreview}</PreviewMessage>;
  if (!url) return <Skeleton />;
  const Viewer = VIEWERS[kind];
  return (
    <div className="tw-file-preview" data-viewer={kind}>
      <ViewerBoundary key={url}>
        <Suspense fallback={<Skeleton />}>
          <Viewer url={url} name={name} extension={extension} />
        </Suspense>
      </ViewerBoundary>
    </div>
  );
}
