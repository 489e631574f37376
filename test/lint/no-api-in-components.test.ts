import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const REFUSED = 'imports the API client';

/** The project's own eslint.config.js, so the test follows the rule as the lint runs it. */
async function apiClientErrors(code: string, filePath: string): Promise<number> {
  // The files named here do not exist, so no TypeScript project holds them: the rules that need
  // type information are left out for them (they do not bear on imports).
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return result!.messages.filter((m) => m.message.includes(REFUSED)).length;
}

const IMPORT = "import { apiRequest } from '../../../lib/api-client.js';\nexport const load = () => apiRequest({ path: '/v1/tasks' });\n";

describe('the API client outside api/ and lib/', () => {
  it('fails the lint in a feature component, statically or lazily imported', async () => {
    expect(await apiClientErrors(IMPORT, 'web/src/features/tasks/components/new-widget.tsx')).toBe(1);
    expect(await apiClientErrors("export const load = () => import('../../lib/api-client.js');\n", 'web/src/features/forms/new-page.tsx')).toBe(1);
    expect(await apiClientErrors("import { apiRequest } from '../lib/api-client';\nexport { apiRequest };\n", 'web/src/components/new-card.tsx')).toBe(1);
  });

  it("fails the lint in a feature's hook or helper module outside its api/ folder", async () => {
    expect(await apiClientErrors(IMPORT.replace('../../../', '../../'), 'web/src/features/tasks/new-tasks-api.ts')).toBe(1);
    expect(await apiClientErrors(IMPORT, 'web/src/features/tasks/components/use-new-widget.ts')).toBe(1);
    expect(
      await apiClientErrors("import { apiRequest } from '../../lib/api-client.js';\nexport { apiRequest };\n", 'web/src/components/files/new-api.ts'),
    ).toBe(1);
  });

  it("passes in the feature's api/ module, web/src/lib/ and a component's test", async () => {
    expect(await apiClientErrors(IMPORT, 'web/src/features/tasks/api/new-api.ts')).toBe(0);
    expect(await apiClientErrors("import { apiRequest } from './api-client.js';\nexport { apiRequest };\n", 'web/src/lib/new-module.ts')).toBe(0);
    expect(await apiClientErrors(IMPORT, 'web/src/features/tasks/components/new-widget.test.tsx')).toBe(0);
  });
});
