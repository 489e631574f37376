import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain-JS ESLint plugin without type declarations
import fixedSleep from '../../eslint-rules/no-fixed-sleep.js';

async function lint(code: string): Promise<string[]> {
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { tidewell: fixedSleep },
        rules: { 'tidewell/no-fixed-sleep': ['error', { maxMs: 1000 }] },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: 'x.test.ts' });
  return result!.messages.map((m) => m.message.split(':')[0]!);
}

describe('no-fixed-sleep lint rule', () => {
  it('refuses a sleep over a second, in setTimeout or Playwright, literal or through a const', async () => {
    expect(await lint('await new Promise((r) => setTimeout(r, 6000));')).toEqual(['setTimeout of 6000 ms']);
    expect(await lint('await page.waitForTimeout(2_600);')).toEqual(['waitForTimeout of 2600 ms']);
    expect(await lint('const SETTLE_MS = 1500;\nawait new Promise((r) => globalThis.setTimeout(r, SETTLE_MS));')).toEqual(['setTimeout of 1500 ms']);
  });

  it('refuses a sleep whose length is not a constant, since it cannot be told short', async () => {
    expect(await lint('const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));')).toEqual(['setTimeout whose length is not a constant']);
  });

  it("allows a short pause, a test's own time limit, the next turn, and a reasoned disable", async () => {
    expect(await lint('await new Promise((r) => setTimeout(r, 250));\nawait page.waitForTimeout(1_000);')).toEqual([]);
    expect(await lint('test.setTimeout(180_000);\nsetTimeout(() => undefined);')).toEqual([]);
    expect(await lint('// eslint-disable-next-line tidewell/no-fixed-sleep -- the clock is the subject\nawait page.waitForTimeout(3_000);')).toEqual([]);
  });
});
