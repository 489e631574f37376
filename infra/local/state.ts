import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Ids the local runtime provisions once and reuses across restarts (<dataDir>/state.json). */
export interface LocalState {
  userPoolId?: string;
  userPoolClientId?: string;
  seededAt?: string;
  /** When the week of clinic life was seeded, and what it made by kind. */
  demoWeekSeededAt?: string;
  demoWeek?: Record<string, number>;
}

export function readState(dataDir: string): LocalState {
  const file = join(dataDir, 'state.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalState) : {};
}

export function writeState(dataDir: string, patch: LocalState): LocalState {
  const next = { ...readState(dataDir), ...patch };
  writeFileSync(join(dataDir, 'state.json'), `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
