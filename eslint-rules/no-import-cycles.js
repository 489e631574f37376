// A module that imports itself through other modules: the load order then decides which one sees
// the other half-initialised, and a reader cannot tell which file owns what. Type-only imports
// count too, since a type cycle is the same tangle of ownership. Relative imports only.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const IMPORT_FROM = /(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/g;
// import('./x.js') as a lazy load or as a type (`import('./x.js').Name`).
const IMPORT_CALL = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** The file a relative specifier names ('./x.js' is ./x.ts in this TypeScript tree), or null. */
export function resolveImport(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [...EXTENSIONS.map((ext) => stem + ext), base, ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile() && /\.(ts|tsx|js|mjs)$/.test(file)) ?? null;
}

/** The files a module imports, read from disk; `cache` keeps each file's list for one lint run. */
export function importsOf(file, cache = new Map()) {
  const cached = cache.get(file);
  if (cached) return cached;
  const out = [];
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '';
  }
  for (const match of [...text.matchAll(IMPORT_FROM), ...text.matchAll(IMPORT_CALL)]) {
    const target = resolveImport(file, match[1]);
    if (target && !target.includes('/node_modules/')) out.push(target);
  }
  cache.set(file, out);
  return out;
}

/** A path of imports from `start` back to `target` (both included), or null when there is none. */
export function pathBack(start, target, cache = new Map()) {
  const seen = new Set();
  const trail = [];
  const walk = (file) => {
    if (file === target) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    trail.push(file);
    for (const next of importsOf(file, cache)) if (walk(next)) return true;
    trail.pop();
    return false;
  };
  return walk(start) ? [...trail, target] : null;
}

/**
 * The strongly connected component of every module reachable from `start` (Tarjan), added to
 * `components`: two modules import each other, directly or through others, exactly when they share one.
 * Each module is visited once per run, so linting a whole tree stays linear in its imports.
 */
export function componentsFrom(start, cache, components) {
  if (components.has(start)) return;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  let counter = 0;
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of importsOf(file, cache)) {
      if (components.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file), index.get(next)));
      }
    }
    if (low.get(file) === index.get(file)) {
      const id = file;
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        components.set(member, id);
      } while (member !== file);
    }
  };
  visit(start);
}

// One lint run reads each file once; a long-lived process (an editor's ESLint server) starts afresh each
// minute so a cycle fixed or made in another file is seen.
let cache = new Map();
let components = new Map();
let cacheStarted = Date.now();

export const noImportCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow relative imports that lead back to the importing module.' },
    messages: { cycle: 'Import cycle: {{path}}' },
    schema: [],
  },
  create(context) {
    if (Date.now() - cacheStarted > 60_000) {
      cache = new Map();
      components = new Map();
      cacheStarted = Date.now();
    }
    const file = context.filename;
    const cwd = context.cwd;
    const check = (node, source = node.source) => {
      const specifier = source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveImport(file, specifier);
      if (!target) return;
      componentsFrom(file, cache, components);
      // Only an import inside the module's own component can lead back to it.
      if (target !== file && components.get(target) !== components.get(file)) return;
      const path = pathBack(target, file, cache);
      if (path) context.report({ node: source, messageId: 'cycle', data: { path: [file, ...path].map((f) => relative(cwd, f)).join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};

export default { rules: { 'no-import-cycles': noImportCycles } };
