import { describe, expect, it } from 'vitest';
import { createChunkUploader, type ChunkTarget } from './chunk-uploader.js';

const blob = (text: string) => new Blob([text], { type: 'audio/webm' });
const target = (index: number): ChunkTarget => ({
  signedUrl: `https://s3.local/chunk-${index}`,
  key: `recordings/patients/p1/n1/s1/chunk-${String(index).padStart(6, '0')}.webm`,
  filesPath: 'recordings/patients/p1/n1/s1',
});

describe('createChunkUploader', () => {
  it('uploads chunks in recording order, one after another, and reports the folder', async () => {
    const puts: string[] = [];
    let inFlight = 0;
    const uploader = createChunkUploader({
      sign: async (index) => target(index),
      put: async (url) => {
        inFlight += 1;
        expect(inFlight).toBe(1);
        await new Promise((r) => setTimeout(r, 2));
        puts.push(url);
        inFlight -= 1;
      },
    });
    uploader.add(blob('a'));
    uploader.add(blob('b'));
    uploader.add(blob(''));
    uploader.add(blob('c'));
    expect(await uploader.finish()).toEqual({ ok: true, filesPath: 'recordings/patients/p1/n1/s1', uploaded: 3, failed: [] });
    expect(puts).toEqual(['https://s3.local/chunk-0', 'https://s3.local/chunk-1', 'https://s3.local/chunk-2']);
    expect(await uploader.recording().text()).toBe('abc');
  });

  it('retries a chunk whose upload failed for a moment', async () => {
    let calls = 0;
    const uploader = createChunkUploader({
      sign: async (index) => target(index),
      put: async () => {
        calls += 1;
        if (calls === 1) throw new Error('network');
      },
      wait: async () => undefined,
    });
    uploader.add(blob('a'));
    expect((await uploader.finish()).ok).toBe(true);
    expect(calls).toBe(2);
  });

  it('reports the chunks that could not be saved and keeps the whole recording for download', async () => {
    const uploader = createChunkUploader({
      sign: async (index) => {
        if (index === 1) throw new Error('403');
        return target(index);
      },
      put: async () => undefined,
      wait: async () => undefined,
      attempts: 2,
    });
    uploader.add(blob('one '));
    uploader.add(blob('two '));
    uploader.add(blob('three'));
    const outcome = await uploader.finish();
    expect(outcome).toMatchObject({ ok: false, uploaded: 2, failed: [1] });
    expect(await uploader.recording().text()).toBe('one two three');
    expect(uploader.chunkCount()).toBe(3);
  });

  it('is not ok when nothing was recorded', async () => {
    const uploader = createChunkUploader({ sign: async (i) => target(i), put: async () => undefined });
    expect((await uploader.finish()).ok).toBe(false);
  });

  it('holds the chunks while the session has expired, without using up their attempts, and saves them all once the user signs in again', async () => {
    let expired = true;
    let release: () => void = () => undefined;
    const signedIn = new Promise<void>((resolve) => (release = resolve));
    const signed: number[] = [];
    const uploader = createChunkUploader({
      sign: async (index) => {
        if (expired) throw Object.assign(new Error('Unauthorized'), { status: 401 });
        signed.push(index);
        return target(index);
      },
      put: async () => undefined,
      ready: () => (expired ? signedIn : Promise.resolve()),
      isSessionError: (error) => (error as { status?: number }).status === 401,
      wait: async () => undefined,
    });
    uploader.add(blob('a'));
    uploader.add(blob('b'));
    await new Promise((r) => setTimeout(r, 5));
    expect(signed).toEqual([]);
    expired = false;
    release();
    expect(await uploader.finish()).toEqual({ ok: true, filesPath: 'recordings/patients/p1/n1/s1', uploaded: 2, failed: [] });
    expect(signed).toEqual([0, 1]);
  });

  it('gives a chunk up when the API keeps refusing a renewed session', async () => {
    const uploader = createChunkUploader({
      sign: async () => {
        throw Object.assign(new Error('Unauthorized'), { status: 401 });
      },
      put: async () => undefined,
      isSessionError: () => true,
      wait: async () => undefined,
    });
    uploader.add(blob('a'));
    expect(await uploader.finish()).toMatchObject({ ok: false, failed: [0] });
  });
});
