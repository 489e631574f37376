import { useEffect, useRef, useState } from 'react';
import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';
import { Spinner } from '../../ui/spinner.js';
import type { ViewerProps } from './viewer-common.js';
import { PreviewMessage } from './viewer-common.js';

type MediaState = 'loading' | 'ready' | 'error';

/**
 * A spinner until the browser can play the file (spec chart-data §2a). The element may reach
 * 'can play' before an event listener is attached, so its readyState is read as well.
 */
function useMediaState<T extends HTMLMediaElement>(url: string) {
  const ref = useRef<T>(null);
  const [state, setState] = useState<MediaState>('loading');
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ready = () => setState('ready');
    const failed = () => setState('error');
    if (el.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) ready();
    else if (el.error) failed();
    el.addEventListener('canplay', ready);
    el.addEventListener('error', failed);
    return () => {
      el.removeEventListener('canplay', ready);
      el.removeEventListener('error', failed);
    };
  }, [url]);
  return { ref, state };
}

export function AudioViewer({ url, name }: ViewerProps) {
  const media = useMediaState<HTMLAudioElement>(url);
  if (media.state === 'error') return <PreviewMessage>{FILE_MESSAGES.cannotView}</PreviewMessage>;
  return (
    <div className="tw-media-viewer" data-state={media.state}>
      {media.state === 'loading' ? <Spinner label="Loading audio" /> : null}
      <audio ref={media.ref} controls preload="auto" src={url} aria-label={name} />
    </div>
  );
}

export function VideoViewer({ url, name }: ViewerProps) {
  const media = useMediaState<HTMLVideoElement>(url);
  if (media.state === 'error') return <PreviewMessage>{FILE_MESSAGES.videoUnsupported}</PreviewMessage>;
  return (
    <div className="tw-media-viewer" data-state={media.state}>
      {media.state === 'loading' ? <Spinner label="Loading video" /> : null}
      <video ref={media.ref} controls preload="auto" src={url} aria-label={name}>
        {FILE_MESSAGES.videoUnsupported}
      </video>
    </div>
  );
}
