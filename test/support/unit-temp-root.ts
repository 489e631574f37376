import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The unit tests' temporary files (CDK's synthesis folders, stand-in web builds, exports) go into
 * one folder of their own, removed when the run ends: test workers are stopped without an exit
 * event, so a test's own clean-up on exit never runs. Workers inherit TMPDIR from this process.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'tidewell-unit-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
