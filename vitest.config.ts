import { defineConfig } from 'vitest/config';

// The lockfile pins SDK releases that still support Node 20 here; Lambdas run on Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{functions,shared,infra,web,scripts}/**/*.test.{ts,tsx}', 'test/infra/**/*.test.ts', 'test/lint/**/*.test.ts', 'test/bench/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', 'test/e2e/**', 'web/dist/**', 'cdk.out/**'],
          globalSetup: ['test/support/unit-temp-root.ts'],
          // CDK synthesis in test/infra takes seconds per stack on two cores.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.int.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          env: { TIDEWELL_LOG: 'silent' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One runtime serves every file; running files one after another keeps two cores responsive.
          fileParallelism: false,
        },
      },
    ],
  },
});
