import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JS ESLint plugin without type declarations
import groupBoundaries from '../../eslint-rules/group-boundaries.js';

const root = resolve(import.meta.dirname, '../..');

async function lint(code: string, filePath: string, allow: string[] = []): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { tidewell: groupBoundaries },
        rules: { 'tidewell/group-boundaries': ['error', { allow }] },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return result!.messages.map((m) => m.message.split(':')[0]!);
}

describe('group-boundaries lint rule', () => {
  it("refuses an import from another group's folder, static, re-exported or lazy", async () => {
    const refused = ['functions/notes/new-file.ts must not import functions/practice/forms.ts'];
    expect(await lint("import { x } from '../practice/forms.js';", 'functions/notes/new-file.ts')).toEqual(refused);
    expect(await lint("export { x } from '../practice/forms.js';", 'functions/notes/new-file.ts')).toEqual(refused);
    expect(await lint("const m = () => import('../practice/forms.js');", 'functions/notes/new-file.ts')).toEqual(refused);
  });

  it('refuses a group import from the shared layers too', async () => {
    expect(await lint("import { x } from '../../notes/sales.js';", 'functions/data/notes/new-file.ts')).toEqual([
      'functions/data/notes/new-file.ts must not import functions/notes/sales.ts',
    ]);
  });

  it('allows its own group, lib/, data/, core/, shared/, and a listed older import', async () => {
    const ok = [
      "import { a } from './sales.js';",
      "import { b } from '../lib/errors.js';",
      "import { c } from '../data/patients/patient-repository.js';",
      "import { d } from '../core/notes/note-common.js';",
      "import { e } from '../../shared/zod.js';",
    ].join('\n');
    expect(await lint(ok, 'functions/notes/new-file.ts')).toEqual([]);
    expect(
      await lint("import { x } from '../practice/forms.js';", 'functions/notes/new-file.ts', ['functions/notes/new-file.ts -> functions/practice/forms.ts']),
    ).toEqual([]);
  });
});
