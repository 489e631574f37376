/**
 * Uploads the recording's 10 s chunks in order as they arrive, each through its own presigned PUT,
 * so a crash or a closed laptop loses at most the chunk being recorded. Every chunk is also kept in
 * memory: when any of them cannot be saved the user downloads the whole recording instead.
 */
export interface ChunkTarget {
  signedUrl: string;
  key: string;
  filesPath: string;
}

export interface ChunkUploaderDeps {
  /** Asks the API for the chunk's presigned PUT. */
  sign(index: number, chunk: Blob): Promise<ChunkTarget>;
  put(url: string, chunk: Blob): Promise<void>;
  /** Resolves when requests can be signed: held while the session has expired, until the user signs in again. */
  ready?: () => Promise<void>;
  /** A refusal because the session ended: waiting for `ready` again does not use up an attempt. */
  isSessionError?: (error: unknown) => boolean;
  /** Waits between attempts; tests pass an immediate one. */
  wait?: (ms: number) => Promise<void>;
  attempts?: number;
  retryDelayMs?: number;
}

export interface UploadOutcome {
  ok: boolean;
  filesPath: string | null;
  uploaded: number;
  failed: number[];
}

export interface ChunkUploader {
  add(chunk: Blob): void;
  /** Resolves once every chunk added so far has been saved or has failed. */
  finish(): Promise<UploadOutcome>;
  /** Everything recorded, for the download offered when saving failed. */
  recording(type?: string): Blob;
  chunkCount(): number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createChunkUploader(deps: ChunkUploaderDeps): ChunkUploader {
  const attempts = deps.attempts ?? 3;
  const retryDelayMs = deps.retryDelayMs ?? 1000;
  const wait = deps.wait ?? sleep;
  const chunks: Blob[] = [];
  const failed: number[] = [];
  let uploaded = 0;
  let filesPath: string | null = null;
  let queue: Promise<void> = Promise.resolve();

  const ready = deps.ready ?? (() => Promise.resolve());
  // Bounds the session waits too, should the API keep refusing a session the user renewed.
  const maxSessionWaits = 20;

  const uploadOne = async (index: number, chunk: Blob) => {
    let sessionWaits = 0;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        await ready();
        const target = await deps.sign(index, chunk);
        await deps.put(target.signedUrl, chunk);
        filesPath = target.filesPath;
        uploaded += 1;
        return;
      } catch (error) {
        if (deps.isSessionError?.(error) && sessionWaits < maxSessionWaits) {
          sessionWaits += 1;
          attempt -= 1;
          await wait(retryDelayMs);
          continue;
        }
        if (attempt < attempts) await wait(retryDelayMs * attempt);
      }
    }
    failed.push(index);
  };

  return {
    add(chunk) {
      // MediaRecorder hands over an empty blob when stopped right after a slice ended.
      if (chunk.size === 0) return;
      const index = chunks.length;
      chunks.push(chunk);
      queue = queue.then(() => uploadOne(index, chunk));
    },
    async finish() {
      await queue;
      return { ok: failed.length === 0 && uploaded > 0, filesPath, uploaded, failed: [...failed] };
    },
    recording(type) {
      return new Blob(chunks, { type: type ?? chunks[0]?.type ?? 'audio/webm' });
    },
    chunkCount: () => chunks.length,
  };
}
