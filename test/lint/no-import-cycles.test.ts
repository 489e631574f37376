import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JS ESLint plugin without type declarations
import tidewell, { pathBack } from '../../eslint-rules/no-import-cycles.js';

let root: string;
const file = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tidewell-cycles-'));
  file('a.ts', "import type { B } from './b.js';\nexport interface A { b?: B }\n");
  file('b.ts', "import { c } from './lib/c.js';\nexport interface B { c: typeof c }\n");
  file('lib/c.ts', "export const c = 1;\nexport type Back = import('../a.js').A;\n");
  file('ok.ts', "import { c } from './lib/c.js';\nimport './styles.css';\nexport const ok = c;\n");
  file('lazy.ts', "export const load = () => import('./lazy-back.js');\n");
  file('lazy-back.ts', "import type { load } from './lazy.js';\nexport type L = typeof load;\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function lint(path: string) {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { tidewell }, rules: { 'tidewell/no-import-cycles': 'error' } },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, path)]);
  return result!.messages.map((m) => m.message);
}

describe('no-import-cycles lint rule', () => {
  it('names the whole circle, type-only and import() type references included', async () => {
    expect(await lint('a.ts')).toEqual(['Import cycle: a.ts -> b.ts -> lib/c.ts -> a.ts']);
    expect(await lint('lib/c.ts')).toEqual(['Import cycle: lib/c.ts -> a.ts -> b.ts -> lib/c.ts']);
  });

  it('counts a lazy import() as an edge', async () => {
    expect(await lint('lazy.ts')).toEqual(['Import cycle: lazy.ts -> lazy-back.ts -> lazy.ts']);
  });

  it('passes a module whose imports never lead back, ignoring non-code imports', async () => {
    expect(await lint('ok.ts')).toEqual([]);
    expect(pathBack(join(root, 'lib/c.ts'), join(root, 'ok.ts'))).toBeNull();
    expect(pathBack(join(root, 'ok.ts'), join(root, 'b.ts'))).toEqual([join(root, 'ok.ts'), join(root, 'lib/c.ts'), join(root, 'a.ts'), join(root, 'b.ts')]);
  });
});
