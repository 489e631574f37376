/** The practice files the commands read and write: <dir>/<slug>.json, validated by the synth's schema. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePracticeConfig, PracticeConfigError, type PracticeConfig } from '../../infra/config/practice-config.js';
import { UsageError } from './context.js';

export const SLUG_PATTERN = /^[a-z0-9-]{2,40}$/;

export function practiceSlugs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

/** An unknown slug is the operator's typo (UsageError); an invalid file is a PracticeConfigError. */
export function loadPractice(dir: string, slug: string, label = `practices/${slug}.json`): PracticeConfig {
  const file = join(dir, `${slug}.json`);
  if (!SLUG_PATTERN.test(slug) || !existsSync(file)) {
    const known = practiceSlugs(dir);
    throw new UsageError(`There is no practice "${slug}" (no ${label}). Known practices: ${known.length ? known.join(', ') : '(none)'}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PracticeConfigError(`${label} is not valid JSON: ${(error as Error).message}`);
  }
  const config = parsePracticeConfig(raw, label);
  if (config.slug !== slug) throw new PracticeConfigError(`${label} says "slug": "${config.slug}"; it must match the file name (${slug}).`);
  return config;
}

/**
 * The practice files a command runs over: each that loads, and the slugs of those that do not (each
 * said through `err`), so one bad file stops only its own practice. An unknown slug still throws.
 */
export function loadPractices(dir: string, slugs: readonly string[], err: (line: string) => void): { configs: PracticeConfig[]; invalid: string[] } {
  const configs: PracticeConfig[] = [];
  const invalid: string[] = [];
  for (const slug of slugs) {
    try {
      configs.push(loadPractice(dir, slug));
    } catch (e) {
      if (!(e instanceof PracticeConfigError)) throw e;
      err(e.message);
      invalid.push(slug);
    }
  }
  return { configs, invalid };
}
