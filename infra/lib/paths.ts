import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root: handler entries, the lockfile and the schema are resolved from here. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function repoPath(relative: string): string {
  return join(REPO_ROOT, relative);
}
