import { FILE_MESSAGES } from '../../../../../shared/files/drive.js';

export class PreviewFetchError extends Error {
  constructor(readonly state: string) {
    super(FILE_MESSAGES.unablePreview);
  }
}

/** Spec chart-data §8: a strict fetch throws 'Failed to fetch URL ... (Status)' on a non-OK answer. */
export class FetchUrlError extends Error {
  constructor(
    url: string,
    readonly status: number,
  ) {
    // The signature (the query) stays out of the message: it is a credential for the file.
    super(`Failed to fetch URL ${url.split('?')[0]} (${status})`);
  }
}

/**
 * GET of the file (spec chart-data §8): status 400 or above is 'fetch error with status {n}'. A
 * strict fetch refuses any non-OK answer (a 3xx body is no file either) with FetchUrlError; the
 * binary decoders (pdf, heic) fetch strictly, so an error page never reaches them as a file.
 */
export async function fetchFile(url: string, options: { strict?: boolean } = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    throw new PreviewFetchError('fetch error');
  }
  if (options.strict && !response.ok) throw new FetchUrlError(url, response.status);
  if (response.status >= 400) throw new PreviewFetchError(`fetch error with status ${response.status}`);
  return response;
}
