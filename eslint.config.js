import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importCycles from './eslint-rules/no-import-cycles.js';
import fixedSleep from './eslint-rules/no-fixed-sleep.js';
import groupBoundaries from './eslint-rules/group-boundaries.js';

const tidewell = { rules: { ...importCycles.rules, ...fixedSleep.rules, ...groupBoundaries.rules } };

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Feature folders import from shared/, the ui kit and lib/, never from each other. A relative
  // path that climbs exactly to web/src/features/ and descends again names another feature, so the
  // rule depends on how deep the importing file sits.
  ...[1, 2, 3].map((depth) => ({
    files: [`web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${'\\.\\./'.repeat(depth)}(?!\\.\\.)[^/]+/`, message: 'Features must not import from other features.' },
            { group: ['**/features/*/**'], message: 'Features must not import from other features.' },
          ],
        },
      ],
    },
  })),
  {
    // One door to zod: shared/zod.ts (zod/mini with English messages). zod's classic API puts all
    // of zod into every Lambda bundle (~98 KB minified against ~38 KB), and a schema module that
    // imported zod/mini itself would answer with zod/mini's bare "Invalid input" messages.
    files: ['**/*.{ts,tsx}'],
    ignores: ['shared/zod.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/^zod(\\/mini|\\/v4|\\/v4\\/mini|\\/v4\\/classic)?$/]",
          message: "Import zod through shared/zod.ts (`import * as z from '<relative>/shared/zod.js'`).",
        },
      ],
    },
  },
  {
    // Plain Node scripts (TypeScript files get Node's globals from @types/node instead).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { tidewell },
    rules: { 'tidewell/no-import-cycles': 'error' },
  },
  {
    // Lambda groups (functions/<group>/) import functions/lib/, data/, core/ and shared/, never
    // another group's folder (docs/architecture.md, "Layout"). The imports below predate the rule;
    // the list only shrinks: move the shared piece to data/, core/ or lib/ and delete its line.
    // A new cross-group import fails the lint.
    files: ['functions/**/*.ts'],
    rules: {
      'tidewell/group-boundaries': [
        'error',
        {
          allow: [
            'functions/ai/transcriptions/proposal-decisions.ts -> functions/chart/section-crud.ts',
            'functions/ai/transcriptions/proposal-decisions.ts -> functions/chart/sections.ts',
            'functions/ai/transcriptions/proposal-decisions.ts -> functions/notes/create-note.ts',
            'functions/chart/drug-safety-routes.ts -> functions/notes/rx-drug.ts',
            'functions/chart/fhir/import-appointments.ts -> functions/practice/calendar.ts',
            'functions/lib/adapters/google-calendar.contract.test.ts -> functions/practice/google-push.ts',
            'functions/notes/form-deliveries.ts -> functions/practice/form-intakes.ts',
            'functions/notes/partner-deliveries.ts -> functions/practice/partner-apps.ts',
            'functions/practice/fhir-import-routes.ts -> functions/chart/fhir/bulk/bulk-import.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/messaging/scheduled-events.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/notes/call-deliveries.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/notifications/reminders/fire-reminder.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/practice/appointment-reminders.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/practice/dosespot-sync.ts',
            'functions/workers/schedule-target/jobs.ts -> functions/practice/google-resync.ts',
            'functions/workers/schedule-target/lab-escalation.ts -> functions/notes/lab-reviews.ts',
            'functions/workers/sms-inbound/handler.test.ts -> functions/messaging/sms-inbound.ts',
            'functions/workers/sms-inbound/handler.ts -> functions/messaging/sms-inbound.ts',
          ],
        },
      ],
    },
  },
  {
    // Tests wait for events with test/support/eventually.ts, not for the clock (benches measure and may settle).
    files: ['test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}'],
    ignores: ['test/support/eventually.ts', 'test/bench/**'],
    rules: { 'tidewell/no-fixed-sleep': ['error', { maxMs: 1000 }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
