import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';

export class PreviewFetchError extends Error {
  constructor(readonly state: string) {
    super(FILE_MESSAGES.unablePreview);
  }
}

/** GET of the file (spec chart-data §8): status 400 or above is 'fetch error with status {n}'. */
export async function fetchFile(url: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    throw new PreviewFetchError('fetch error');
  }
  if (response.status >= 400) throw new PreviewFetchError(`fetch error with status ${response.status}`);
  return response;
}
