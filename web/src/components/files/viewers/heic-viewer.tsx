import { useEffect, useState } from 'react';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { heicToJpeg } from './heic.js';
import ImageViewer from './image-viewer.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

/** A HEIC photo, converted to JPEG in the browser, then shown like any image (scaled to fit). */
export default function HeicViewer({ url, name, extension }: ViewerProps) {
  const loaded = useFile(url, async (response) => heicToJpeg(new Uint8Array(await response.arrayBuffer())), { strict: true });
  const [jpegUrl, setJpegUrl] = useState<string | null>(null);

  useEffect(() => {
    if (loaded.state !== 'ready') return;
    const objectUrl = URL.createObjectURL(loaded.value);
    setJpegUrl(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setJpegUrl(null);
    };
  }, [loaded]);

  if (loaded.state === 'error') return <PreviewMessage>{loaded.message}</PreviewMessage>;
  if (loaded.state !== 'ready' || !jpegUrl) return <Skeleton />;
  return (
    <div className="tw-heic-viewer" data-converted-type={loaded.value.type}>
      <ImageViewer url={jpegUrl} name={name} extension={extension} />
    </div>
  );
}
