import { useState } from 'react';
import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';
import { Spinner } from '../../ui/spinner.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';

/** A player with a spinner until the browser can play the file (spec chart-data §2a). */
function useMediaState() {
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  return { state, ready: () => setState('ready'), failed: () => setState('error') };
}

export function AudioViewer({ url, name }: ViewerProps) {
  const media = useMediaState();
  if (media.state === 'error') return <PreviewMessage>{FILE_MESSAGES.cannotView}</PreviewMessage>;
  return (
    <div className="tw-media-viewer" data-state={media.state}>
      {media.state === 'loading' ? <Spinner label="Loading audio" /> : null}
      <audio controls src={url} aria-label={name} onCanPlay={media.ready} onError={media.failed} />
    </div>
  );
}

export function VideoViewer({ url, name }: ViewerProps) {
  const media = useMediaState();
  if (media.state === 'error') return <PreviewMessage>{FILE_MESSAGES.videoUnsupported}</PreviewMessage>;
  return (
    <div className="tw-media-viewer" data-state={media.state}>
      {media.state === 'loading' ? <Spinner label="Loading video" /> : null}
      <video controls src={url} aria-label={name} onCanPlay={media.ready} onError={media.failed}>
        {FILE_MESSAGES.videoUnsupported}
      </video>
    </div>
  );
}
