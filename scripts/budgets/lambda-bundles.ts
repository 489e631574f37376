/**
 * Bundles each group Lambda with the stack's own esbuild options and measures what a cold start
 * carries: the minified size of the bundle and how long a fresh `node` takes to import it.
 */
import { build, type Metafile } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GROUPS, type GroupDefinition } from '../../functions/groups.js';
import { esbuildOptions, LAMBDA_ENTRY_FILE, LAMBDA_NODE_OPTIONS } from '../../infra/lib/lambda-bundling.js';
import { repoPath, REPO_ROOT } from '../../infra/lib/paths.js';

export interface BuiltBundle {
  group: string;
  /** The handler file a cold start loads (index.mjs). */
  file: string;
  /** Minified bytes a cold start loads (index.mjs and the chunks it imports statically): what the budget holds. */
  bytes: number;
  /** Every .mjs the bundle has, with the chunks loaded only by import() on rare paths. */
  totalBytes: number;
  metafile: Metafile;
}

/** Builds every group's bundle into outDir/<group>/, one after another (two shared cores). */
export async function buildGroupBundles(outDir: string, groups: readonly GroupDefinition[] = GROUPS): Promise<BuiltBundle[]> {
  const built: BuiltBundle[] = [];
  for (const group of groups) {
    const dir = join(outDir, group.name);
    mkdirSync(dir, { recursive: true });
    const result = await build({ ...esbuildOptions(repoPath(group.entry), dir), absWorkingDir: REPO_ROOT });
    const metafile = result.metafile!;
    const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.mjs'));
    const entry = handlerOutput(metafile);
    built.push({
      group: group.name,
      file: join(dir, LAMBDA_ENTRY_FILE),
      bytes: [...coldStartFiles(metafile, entry)].reduce((sum, path) => sum + metafile.outputs[path].bytes, 0),
      totalBytes: outputs.reduce((sum, [, o]) => sum + o.bytes, 0),
      metafile,
    });
  }
  return built;
}

/** The handler's output file: a chunk a dynamic import() loads is an entry point to esbuild too, so the handler is found by its name. */
export function handlerOutput(metafile: Metafile): string {
  const entry = Object.keys(metafile.outputs).find((path) => path === LAMBDA_ENTRY_FILE || path.endsWith(`/${LAMBDA_ENTRY_FILE}`));
  if (!entry) throw new Error(`No ${LAMBDA_ENTRY_FILE} among the bundle's outputs`);
  return entry;
}

/** The output files a cold start loads: the entry and, transitively, the chunks it imports statically. */
export function coldStartFiles(metafile: Metafile, entry: string, into = new Set<string>()): Set<string> {
  if (into.has(entry)) return into;
  into.add(entry);
  for (const imported of metafile.outputs[entry]?.imports ?? []) {
    if (imported.kind === 'import-statement' && !imported.external) coldStartFiles(metafile, imported.path, into);
  }
  return into;
}

/** Environment a group module may read while it loads; values are placeholders, nothing is called. */
const INIT_ENV = {
  TABLE_NAME: 'tidewell-bench',
  PRACTICE_ID: 'bench',
  FILES_BUCKET: 'tidewell-bench-files',
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

export interface ModuleInit {
  /** Median wall-clock milliseconds of the import. */
  wallMs: number;
  /** Median CPU milliseconds (user + system) of the import: what the budget holds, since other
   * processes on a shared machine stretch the wall clock but not the work the import does. */
  cpuMs: number;
}

/** One fresh node process importing the bundle: [wall ms, CPU ms] of the import. */
export function importOnce(file: string): [number, number] {
  const script = [
    'const c=process.cpuUsage();const t=performance.now();',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'const w=performance.now()-t;const u=process.cpuUsage(c);',
    'process.stdout.write(JSON.stringify([w,(u.user+u.system)/1000]));',
  ].join('');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: LAMBDA_NODE_OPTIONS, ...INIT_ENV },
    encoding: 'utf8',
  });
  return JSON.parse(out) as [number, number];
}

/** What a fresh node process spends importing the bundle; the median of `runs` processes. */
export function moduleInit(file: string, runs = 5): ModuleInit {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const [w, c] = importOnce(file);
    wall.push(w);
    cpu.push(c);
  }
  return { wallMs: median(wall), cpuMs: median(cpu) };
}

/**
 * How many zod schemas the bundle builds while it loads (each costs about 10 µs of module init),
 * counted in a process of its own through zod's global post-processor hook so the timed runs stay clean.
 * Undefined when nothing was counted: every group builds schemas, so zod no longer calls the hook.
 */
export function schemasBuiltAtImport(file: string): number | undefined {
  const script = [
    'let n=0;globalThis.__zod_globalConfig={postProcessor:()=>{n++;}};',
    `await import(${JSON.stringify(pathToFileURL(file).href)});`,
    'process.stdout.write(String(n));',
  ].join('');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: LAMBDA_NODE_OPTIONS, ...INIT_ENV },
    encoding: 'utf8',
  });
  return Number(out) || undefined;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Bytes each input contributes to the output, largest first, grouped by package (or source folder). */
export function largestInputs(metafile: Metafile, top = 12): { name: string; bytes: number }[] {
  const byName = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/(v4\/[^/]+|dist-[^/]+\/[^/]+))?/.exec(path);
      const name = pkg ? pkg[1] + (pkg[1] === 'zod' && pkg[2] ? `/${pkg[2]}` : '') : path.split('/').slice(0, 2).join('/');
      byName.set(name, (byName.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byName]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
}
