import heic2any from 'heic2any';
import { useEffect, useState } from 'react';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';
import { Skeleton } from './skeleton.js';
import { useFile } from './use-file.js';

/** Spec chart-data §9: a phone's HEIC photo becomes a jpeg at quality 0.9 in the browser. */
export const HEIC_JPEG_QUALITY = 0.9;

export default function HeicViewer({ url, name }: ViewerProps) {
  const file = useFile(url, async (r) => {
    const converted = await heic2any({ blob: await r.blob(), toType: 'image/jpeg', quality: HEIC_JPEG_QUALITY });
    return URL.createObjectURL(Array.isArray(converted) ? converted[0] : converted);
  });
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (file.state !== 'ready') return;
    setShown(file.value);
    return () => URL.revokeObjectURL(file.value);
  }, [file]);
  if (file.state === 'loading') return <Skeleton />;
  if (file.state === 'error') return <PreviewMessage>{file.message}</PreviewMessage>;
  return shown ? <img className="tw-image-viewer" src={shown} alt={name} data-converted="jpeg" /> : null;
}
