#!/usr/bin/env node
// npm 11 can write a package-lock.json that lacks the other platforms' optional native packages
// of a dependency (seen with rollup); `npm ci` then refuses the lock as out of sync. This adds
// the missing entries from the registry's metadata, so the lock installs on every platform.
// Usage: node scripts/complete-lock-optionals.mjs [--check]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const check = process.argv.includes('--check');
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const missing = [];

for (const [path, entry] of Object.entries(packages)) {
  if (!path || !entry.optionalDependencies) continue;
  const base = path.slice(0, path.lastIndexOf('node_modules/'));
  for (const [name, version] of Object.entries(entry.optionalDependencies)) {
    const nested = `${path}/node_modules/${name}`;
    const hoisted = `${base}node_modules/${name}`;
    if (packages[nested] || packages[hoisted] || packages[`node_modules/${name}`]) continue;
    missing.push({ key: hoisted, name, version, dev: entry.dev });
  }
}

if (check) {
  for (const m of missing) console.log(`missing ${m.name}@${m.version}`);
  process.exit(missing.length ? 1 : 0);
}

for (const m of missing) {
  const view = JSON.parse(
    execFileSync('npm', ['view', `${m.name}@${m.version}`, 'version', 'dist.integrity', 'license', 'cpu', 'os', 'libc', 'engines', '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const entry = { version: view.version, integrity: view['dist.integrity'] };
  if (m.dev) entry.dev = true;
  if (view.license) entry.license = view.license;
  entry.optional = true;
  for (const field of ['cpu', 'os', 'libc']) if (view[field]) entry[field] = [].concat(view[field]);
  if (view.engines) entry.engines = view.engines;
  packages[m.key] = entry;
  console.log(`added ${m.key}@${view.version}`);
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
