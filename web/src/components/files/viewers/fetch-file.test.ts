import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchFile, FetchUrlError, PreviewFetchError } from './fetch-file.js';

const answer = (status: number) => vi.fn(async () => new Response(status === 204 || status === 304 ? null : 'x', { status }));

describe('fetching a file to preview (spec chart-data §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the status of a failed fetch, and refuses any non-OK answer when strict, without the signature', async () => {
    vi.stubGlobal('fetch', answer(404));
    await expect(fetchFile('https://files.example/public/a.pdf?X-Amz-Signature=secret')).rejects.toMatchObject({
      state: 'fetch error with status 404',
      message: 'Unable to preview file',
    });
    const strict = fetchFile('https://files.example/public/a.pdf?X-Amz-Signature=secret', { strict: true });
    await expect(strict).rejects.toBeInstanceOf(FetchUrlError);
    await expect(strict).rejects.toThrow('Failed to fetch URL https://files.example/public/a.pdf (404)');
    vi.stubGlobal('fetch', answer(304));
    await expect(fetchFile('https://files.example/b.pdf', { strict: true })).rejects.toThrow('Failed to fetch URL https://files.example/b.pdf (304)');
    await expect(fetchFile('https://files.example/b.pdf')).resolves.toBeInstanceOf(Response);
  });

  it('a network failure is a fetch error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(fetchFile('https://files.example/c.pdf', { strict: true })).rejects.toBeInstanceOf(PreviewFetchError);
  });
});
