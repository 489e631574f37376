import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface JsonStateFile {
  /** Asks for the current state to be written; returns at once. Calls while a write is in flight are folded into one more write. */
  save(): void;
  /** Resolves once every state asked for so far is on disk. */
  flush(): Promise<void>;
}

/**
 * A stand-in's state kept in one JSON file, written behind the requests that change it. Every
 * stand-in shares the API's one event loop, and a synchronous write-and-rename waits on the disk:
 * behind a large table's own writes that was 50–170 ms per text sent, with every request of the
 * process held up meanwhile. The file is written whole to a temporary name and renamed, so a crash
 * leaves the last complete state.
 */
export function jsonStateFile(file: string, state: () => unknown, onError: (error: unknown) => void): JsonStateFile {
  let writing: Promise<void> | null = null;
  let again = false;

  async function writeLoop(): Promise<void> {
    do {
      again = false;
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, JSON.stringify(state()));
      await rename(`${file}.tmp`, file);
    } while (again);
  }

  function save(): void {
    if (writing) {
      again = true;
      return;
    }
    writing = writeLoop()
      .catch(onError)
      .finally(() => {
        writing = null;
      });
  }

  return {
    save,
    async flush() {
      while (writing) await writing;
    },
  };
}
