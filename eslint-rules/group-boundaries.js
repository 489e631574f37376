// A Lambda group (functions/<group>/) imports functions/lib/, functions/data/, functions/core/ and
// the repository's shared/, never another group's folder: a group that reaches into another bundles
// that group's code and breaks when the other group reorganises. lib/, data/ and core/ import no
// group at all. Relative imports only; dynamic import() and import types count, since they tie the
// same folders together.
import { relative } from 'node:path';
import { resolveImport } from './no-import-cycles.js';

const LAYERS = new Set(['lib', 'data', 'core']);

/** 'ai' for functions/ai/…, 'lib' for functions/lib/…; null outside functions/ or for a file at its top. */
export function groupOf(repoPath) {
  const m = /^functions\/([^/]+)\/./.exec(repoPath);
  return m ? m[1] : null;
}

export const groupBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "Disallow imports from another Lambda group's folder under functions/." },
    messages: {
      crossGroup:
        "{{from}} must not import {{to}}: another group's folder. Move what both need to functions/data/ (table access), functions/core/ (a shared use-case) or functions/lib/ (a generic helper).",
    },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
  },
  create(context) {
    const cwd = context.cwd;
    const file = relative(cwd, context.filename).split('\\').join('/');
    const own = groupOf(file);
    if (!own) return {};
    const allow = new Set(context.options[0]?.allow ?? []);
    const check = (node, source = node.source) => {
      const specifier = source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const resolved = resolveImport(context.filename, specifier);
      if (!resolved) return;
      const target = relative(cwd, resolved).split('\\').join('/');
      const theirs = groupOf(target);
      if (!theirs || theirs === own || LAYERS.has(theirs)) return;
      if (allow.has(`${file} -> ${target}`)) return;
      context.report({ node: source, messageId: 'crossGroup', data: { from: file, to: target } });
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

export default { rules: { 'group-boundaries': groupBoundaries } };
