import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { firstScreenWeights, type ViteManifest } from './web-entries.js';

/** A tiny web/dist: an entry with one shared chunk and CSS, a lazy /home page, and a lazy editor never on a first screen. */
function fixtureDist(manifest: ViteManifest | null = MANIFEST): string {
  const dir = mkdtempSync(join(tmpdir(), 'tidewell-web-entries-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), '<script type="module" src="./assets/index-a1.js"></script><link rel="stylesheet" href="./assets/index-c1.css">');
  const files: Record<string, string> = {
    'assets/index-a1.js': 'entry;'.repeat(400),
    'assets/shared-b1.js': 'shared;'.repeat(300),
    'assets/index-c1.css': 'body{}'.repeat(200),
    'assets/home-d1.js': 'home;'.repeat(200),
    'assets/home-e1.css': '.home{}'.repeat(100),
    'assets/editor-f1.js': 'editor'.repeat(5000) + Math.random(),
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  if (manifest) writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

const MANIFEST: ViteManifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    isEntry: true,
    imports: ['_shared-b1.js'],
    css: ['assets/index-c1.css'],
    dynamicImports: ['src/home.tsx', 'src/editor.tsx'],
  },
  '_shared-b1.js': { file: 'assets/shared-b1.js' },
  'src/home.tsx': { file: 'assets/home-d1.js', isDynamicEntry: true, imports: ['index.html', '_shared-b1.js'], css: ['assets/home-e1.css'] },
  'src/editor.tsx': { file: 'assets/editor-f1.js', isDynamicEntry: true, imports: ['index.html'] },
};

const gz = (dir: string, file: string) => gzipSync(readFileSync(join(dir, file))).length;

describe('web first-screen weights', () => {
  it('sums gzip of the entry, its static imports and CSS for sign-in, plus the /home route chunk for a signed-in user', () => {
    const dir = fixtureDist();
    const [signIn, home] = firstScreenWeights(dir, { signIn: [], home: ['src/home.tsx'] });
    const shell = ['assets/index-a1.js', 'assets/shared-b1.js', 'assets/index-c1.css'];
    expect(signIn.files.map((f) => f.file).sort()).toEqual([...shell].sort());
    expect(signIn.gzipBytes).toBe(shell.reduce((sum, f) => sum + gz(dir, f), 0));
    expect(home.files.map((f) => f.file).sort()).toEqual([...shell, 'assets/home-d1.js', 'assets/home-e1.css'].sort());
    expect(home.files.map((f) => f.file)).not.toContain('assets/editor-f1.js');
  });

  it('fails clearly when web/dist has not been built', () => {
    expect(() => firstScreenWeights(join(tmpdir(), 'tidewell-no-such-dist'))).toThrow(/index\.html is missing: run `npm run build:web` first/);
  });

  it('fails clearly when the build has no manifest', () => {
    expect(() => firstScreenWeights(fixtureDist(null))).toThrow(/manifest\.json is missing/);
  });

  it('finds a lazy module whose chunk small chunks joined, under the name its file keeps', () => {
    // Rollup names such a chunk after a small module that joined it, with no source of its own;
    // the build's chunkFileNames keeps the app's file name.
    const merged: ViteManifest = {
      ...MANIFEST,
      'index.html': { ...MANIFEST['index.html'], dynamicImports: ['_call-responses-d1.js', 'src/editor.tsx'] },
      '_call-responses-d1.js': { ...MANIFEST['src/home.tsx'], file: 'assets/home-D1xY_-9z.js', name: 'call-responses' },
    };
    delete merged['src/home.tsx'];
    const dir = fixtureDist(merged);
    writeFileSync(join(dir, 'assets/home-D1xY_-9z.js'), 'home;'.repeat(200));
    const [, home] = firstScreenWeights(dir, { signIn: [], home: ['src/home.tsx'] });
    expect(home.files.map((f) => f.file)).toContain('assets/home-D1xY_-9z.js');
  });

  it('names a route module that is no longer its own chunk', () => {
    expect(() => firstScreenWeights(fixtureDist(), { signIn: [], home: ['src/gone.tsx'] })).toThrow(/src\/gone\.tsx is not a chunk of the web build/);
  });
});
