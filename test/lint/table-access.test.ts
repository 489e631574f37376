import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const REFUSED = 'Table access lives in functions/data/<entity>/';

/** The project's own eslint.config.js, so the test follows the rule as the lint runs it. */
async function tableAccessErrors(filePath: string): Promise<number> {
  // The files named here do not exist, so no TypeScript project holds them: the rules that need
  // type information are left out for them (they do not bear on imports).
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  });
  const [result] = await eslint.lintText("import { GetCommand } from '@aws-sdk/lib-dynamodb';\nexport const get = GetCommand;\n", {
    filePath: resolve(root, filePath),
  });
  return result!.messages.filter((m) => m.message.includes(REFUSED)).length;
}

describe('table access outside the data layer', () => {
  it('fails the lint in a group folder and in lib/', async () => {
    expect(await tableAccessErrors('functions/notes/new-file.ts')).toBe(1);
    expect(await tableAccessErrors('functions/lib/audit/new-file.ts')).toBe(1);
  });

  it('passes in the data layer and the table client', async () => {
    expect(await tableAccessErrors('functions/data/notes/new-file.ts')).toBe(0);
    expect(await tableAccessErrors('functions/lib/table/new-file.ts')).toBe(0);
  });
});
