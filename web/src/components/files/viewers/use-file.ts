import { useEffect, useState } from 'react';
import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';
import { fetchFile } from './fetch-file.js';

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };

/** Fetches the file and turns it into what the viewer shows; any failure is the spec's 'Unable to preview file'. */
export function useFile<T>(url: string, read: (response: Response) => Promise<T>, options: { strict?: boolean } = {}): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setLoaded({ state: 'loading' });
    fetchFile(url, options)
      .then(read)
      .then(
        (value) => live && setLoaded({ state: 'ready', value }),
        () => live && setLoaded({ state: 'error', message: FILE_MESSAGES.unablePreview }),
      );
    return () => {
      live = false;
    };
    // The reader is fixed per viewer; only a new URL refetches.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  return loaded;
}
