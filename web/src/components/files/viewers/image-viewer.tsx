import { lazy, Suspense, useState } from 'react';
import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { isPanorama } from '../viewer-kind.js';
import { Skeleton } from './skeleton.js';

const PanoramaViewer = lazy(() => import('./panorama-viewer.js'));

/** An image scaled to fit; a 2:1 jpg becomes the draggable 360° panorama once its size is known. */
export default function ImageViewer({ url, name, extension }: ViewerProps) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  if (failed) return <PreviewMessage>{FILE_MESSAGES.cannotView}</PreviewMessage>;
  if (size && isPanorama(extension, size.width, size.height)) {
    return (
      <Suspense fallback={<Skeleton />}>
        <PanoramaViewer url={url} name={name} extension={extension} />
      </Suspense>
    );
  }
  return (
    <img
      className="tw-image-viewer"
      src={url}
      alt={name}
      onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
      onError={() => setFailed(true)}
    />
  );
}
