import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

/** Counts the disk writes, so the test sees how many a burst of saves costs. */
const writes = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    writeFile: (...args: Parameters<typeof real.writeFile>) => {
      writes.count++;
      return real.writeFile(...args);
    },
  };
});

const { jsonStateFile } = await import('./json-state-file.js');

function textsStateFile(name: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'tidewell-state-file-')), name);
  const state = { texts: [] as number[] };
  const stored = jsonStateFile(
    file,
    () => state,
    (error) => expect.fail(String(error)),
  );
  return { file, state, stored };
}

describe('a stand-in state file written behind its requests', () => {
  it('returns from save before the disk is touched, and flush leaves the latest state on disk', async () => {
    const { file, state, stored } = textsStateFile('nested/state.json');
    writes.count = 0;
    state.texts.push(1);
    stored.save();
    expect(writes.count).toBe(0);
    await stored.flush();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ texts: [1] });
  });

  it('folds the saves asked for during a write into one more write of the newest state', async () => {
    const { file, state, stored } = textsStateFile('state.json');
    writes.count = 0;
    for (let i = 1; i <= 50; i++) {
      state.texts.push(i);
      stored.save();
    }
    await stored.flush();
    expect(writes.count).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8')).texts).toHaveLength(50);
  });

  it('reports a failed write and keeps taking saves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewell-state-file-'));
    const errors: unknown[] = [];
    const broken = jsonStateFile(
      join(dir, 'state.json', 'under-a-file.json'),
      () => ({}),
      (error) => errors.push(error),
    );
    const fine = jsonStateFile(
      join(dir, 'state.json'),
      () => ({ ok: true }),
      (error) => errors.push(error),
    );
    fine.save();
    await fine.flush();
    broken.save();
    await broken.flush();
    expect(errors).toHaveLength(1);
    broken.save();
    await broken.flush();
    expect(errors).toHaveLength(2);
  });
});
