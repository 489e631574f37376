/**
 * What the browser downloads before each first screen, from the built app (web/dist): the entry
 * script of index.html, every chunk it imports statically, and their CSS, gzip-compressed as the
 * server sends them; for a screen behind a lazy route, plus that route's chunk and its own static
 * imports. Read from Vite's manifest (build.manifest in web/vite.config.ts), so the figure follows
 * the real chunk graph.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Source modules (keys of Vite's manifest, relative to web/) whose lazy chunks the signed-out sign-in screen loads. */
export const SIGN_IN_MODULES: readonly string[] = ['src/features/auth/components/sign-in-screen.tsx'];

/** Source modules whose lazy chunks a signed-in user landing on /home loads (the /home route's page). */
export const HOME_ROUTE_MODULES: readonly string[] = ['src/app/authenticated-app.tsx', 'src/app/dashboard-page.tsx'];

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type ViteManifest = Record<string, ManifestChunk>;

export interface ScreenWeight {
  screen: string;
  gzipBytes: number;
  files: { file: string; gzipBytes: number }[];
}

export class WebDistError extends Error {}

export function readManifest(distDir: string): ViteManifest {
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new WebDistError(`${distDir}/index.html is missing: run \`npm run build:web\` first`);
  }
  if (!existsSync(manifestPath)) {
    throw new WebDistError(`${manifestPath} is missing: build the web app with build.manifest on (\`npm run build:web\`)`);
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as ViteManifest;
}

/** The manifest key of the chunk index.html loads, checked against the script tag index.html really has. */
export function entryKey(manifest: ViteManifest, indexHtml: string): string {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  const loaded = entries.find(([, chunk]) => indexHtml.includes(chunk.file));
  if (!loaded) throw new WebDistError(`index.html loads none of the manifest's entry chunks (${entries.map(([, c]) => c.file).join(', ') || 'none'})`);
  return loaded[0];
}

/**
 * A module's manifest key: its source path, or, for a lazy module Rollup emitted under a generated
 * key (`_dashboard-page-<hash>.js`), the dynamic entry named after the module's file; failing
 * that, the one whose file is (a chunk that small chunks joined takes one of their names, and the
 * build's chunkFileNames gives the signed-in app's its own back).
 */
export function chunkKey(manifest: ViteManifest, module: string): string {
  if (manifest[module]) return module;
  const bySrc = Object.entries(manifest).find(([, chunk]) => chunk.src === module);
  if (bySrc) return bySrc[0];
  const name = module
    .split('/')
    .pop()!
    .replace(/\.[jt]sx?$/, '');
  const dynamicEntries = Object.entries(manifest).filter(([, chunk]) => chunk.isDynamicEntry);
  const byName = dynamicEntries.filter(([, chunk]) => chunk.name === name);
  if (byName.length === 1) return byName[0][0];
  const fileOf = new RegExp(`(^|/)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[\\w-]{8}\\.js$`);
  const byFile = dynamicEntries.filter(([, chunk]) => fileOf.test(chunk.file));
  return byFile.length === 1 ? byFile[0][0] : module;
}

/** The files a chunk needs before it runs: itself, its static imports (transitively) and all their CSS. */
export function staticClosure(manifest: ViteManifest, keys: readonly string[], into = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const visit = (module: string) => {
    const key = chunkKey(manifest, module);
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new WebDistError(`${key} is not a chunk of the web build (web/dist/.vite/manifest.json); is it still imported lazily?`);
    into.add(chunk.file);
    for (const css of chunk.css ?? []) into.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return into;
}

function weigh(distDir: string, screen: string, files: Set<string>): ScreenWeight {
  const weighed = [...files].map((file) => ({ file, gzipBytes: gzipSync(readFileSync(join(distDir, file))).length }));
  weighed.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { screen, gzipBytes: weighed.reduce((sum, f) => sum + f.gzipBytes, 0), files: weighed };
}

/** Gzip weight of the two first screens: signed-out sign-in, and signed-in /home. */
export function firstScreenWeights(
  distDir: string,
  modules: { signIn: readonly string[]; home: readonly string[] } = { signIn: SIGN_IN_MODULES, home: HOME_ROUTE_MODULES },
): ScreenWeight[] {
  const manifest = readManifest(distDir);
  const entry = entryKey(manifest, readFileSync(join(distDir, 'index.html'), 'utf8'));
  const shell = staticClosure(manifest, [entry]);
  return [
    weigh(distDir, 'sign-in (signed out)', staticClosure(manifest, modules.signIn, new Set(shell))),
    weigh(distDir, '/home (signed in)', staticClosure(manifest, modules.home, new Set(shell))),
  ];
}
