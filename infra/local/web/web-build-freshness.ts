import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * A web build is stale when any source it is built from (web/, shared/) changed after it, so
 * `npm start` after a pull never serves an old app against a new API.
 */
export function webBuildIsStale(repoRoot: string): boolean {
  const index = join(repoRoot, 'web', 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return newestMtime(join(repoRoot, 'web')) > built || newestMtime(join(repoRoot, 'shared')) > built;
}
