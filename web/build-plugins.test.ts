import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type Plugin, type Rollup } from 'vite';
import {
  declarationOnlyLibraries,
  deferSignInCode,
  englishOnlyAriaStrings,
  landingScreenCodeFiles,
  nativeSyncExternalStore,
  onlyUsedAmplifyTokens,
  productionReactRouter,
  withoutImportersOwnChunks,
} from './build-plugins.js';

type Hook = (...args: unknown[]) => unknown;
const hook = (plugin: Plugin, name: 'resolveId' | 'load' | 'transform') => plugin[name] as unknown as Hook;

const AMPLIFY_UI = '/repo/node_modules/@aws-amplify/ui/dist/esm/machines/authenticator/defaultServices.mjs';

describe('deferSignInCode', () => {
  const plugin = deferSignInCode();

  it("answers Amplify UI's imports of Amplify Auth and qrcode with modules that load them on first call", () => {
    const auth = hook(plugin, 'resolveId')('aws-amplify/auth', AMPLIFY_UI) as string;
    const shim = hook(plugin, 'load')(auth) as string;
    expect(shim).toContain("export { getCurrentUser, signOut } from 'aws-amplify/auth';");
    expect(shim).toMatch(/export const signIn = \(\.\.\.args\) => flows\(\)\.then\(\(m\) => m\.signIn\(\.\.\.args\)\);/);
    expect(shim).toContain('sign-in-flows.ts');
    const qrcode = hook(plugin, 'load')(hook(plugin, 'resolveId')('qrcode', AMPLIFY_UI)) as string;
    expect(qrcode).toContain("import('qrcode')");
  });

  it("leaves the app's own imports of Amplify Auth alone", () => {
    expect(hook(plugin, 'resolveId')('aws-amplify/auth', '/repo/web/src/lib/api-client.ts')).toBeNull();
    expect(hook(plugin, 'resolveId')('aws-amplify/auth', undefined)).toBeNull();
  });
});

describe('englishOnlyAriaStrings', () => {
  it('keeps only the en-US strings of a React Aria string table', () => {
    const table = [
      'import $a from "../intl/toast/de-DE.mjs";',
      'import $b from "../intl/toast/en-US.mjs";',
      'var $x = {};',
      '$x = {',
      '    "de-DE": $a,',
      '    "en-US": $b,',
      '};',
    ].join('\n');
    const out = hook(englishOnlyAriaStrings(), 'transform')(table, '/repo/node_modules/react-aria/dist/private/toast/intlStrings.mjs') as { code: string };
    expect(out.code).toContain('"en-US": $b');
    expect(out.code).toContain('en-US.mjs');
    expect(out.code).not.toContain('de-DE');
    expect(hook(englishOnlyAriaStrings(), 'transform')(table, '/repo/web/src/app.tsx')).toBeNull();
  });
});

describe('onlyUsedAmplifyTokens', () => {
  it("keeps the tokens the sign-in stylesheets use, also written as var( --token ), and drops other components' tokens", () => {
    const theme = [
      ':root, [data-amplify-theme] {',
      '  --amplify-colors-primary-80: teal;',
      '  --amplify-components-button-primary-background-color: var(--amplify-colors-primary-80);',
      '  --amplify-components-button-border-width: var( --amplify-components-fieldcontrol-border-width );',
      '  --amplify-components-fieldcontrol-border-width: 1px;',
      '  --amplify-components-accordion-item-border-color: red;',
      '}',
    ].join('\n');
    const id = `${process.cwd()}/node_modules/@aws-amplify/ui-react/dist/styles/base.layer.css`;
    const { code } = hook(onlyUsedAmplifyTokens(), 'transform')(theme, id) as { code: string };
    expect(code).toContain('--amplify-components-button-primary-background-color');
    expect(code).toContain('--amplify-components-button-border-width');
    expect(code).toContain('--amplify-components-fieldcontrol-border-width: 1px;');
    expect(code).toContain('--amplify-colors-primary-80: teal;');
    expect(code).not.toContain('accordion');
  });
});

describe('nativeSyncExternalStore', () => {
  it("points the React 17 shim at React's own hook", () => {
    const plugin = nativeSyncExternalStore();
    const id = hook(plugin, 'resolveId')('use-sync-external-store/shim');
    expect(hook(plugin, 'load')(id)).toBe("export { useSyncExternalStore } from 'react';");
    expect(hook(plugin, 'resolveId')('use-sync-external-store/shim/with-selector')).toBeNull();
  });
});

const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], css: string[] = [], isEntry = false) => ({
  type: 'chunk' as const,
  fileName,
  isEntry,
  moduleIds,
  imports,
  viteMetadata: { importedCss: new Set(css) },
});

describe('productionReactRouter', () => {
  it("builds React Router without its developer warnings, which the package's exports always include", async () => {
    // Inside web/, so that the package resolves from the project's node_modules as the app's does.
    const dir = mkdtempSync(join(import.meta.dirname, '.bundle-'));
    try {
      const entry = join(dir, 'entry.js');
      writeFileSync(
        entry,
        "import { createHashRouter } from 'react-router';\nimport { RouterProvider } from 'react-router/dom';\nexport { createHashRouter, RouterProvider };\n",
      );
      const bundle = async (plugins: Plugin[]) => {
        const out = (await build({
          configFile: false,
          logLevel: 'silent',
          plugins,
          build: { write: false, minify: false, lib: { entry, formats: ['es'], fileName: 'out' }, rollupOptions: { external: ['react', 'react-dom'] } },
        })) as Rollup.RollupOutput[];
        return out
          .flatMap((o) => o.output)
          .map((chunk) => ('code' in chunk ? chunk.code : ''))
          .join('\n');
      };
      const warning = 'You should not include both `Component` and `element` on your route';
      expect(await bundle([])).toContain(warning);
      const built = await bundle([productionReactRouter()]);
      expect(built).not.toContain(warning);
      expect(built).toContain('function createHashRouter');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('landingScreenCodeFiles', () => {
  const APP = '/web/src/app/authenticated-app.tsx';
  const bundle = {
    'assets/index.js': chunk('assets/index.js', ['/web/src/main.tsx'], ['assets/react.js'], ['assets/index.css'], true),
    'assets/react.js': chunk('assets/react.js', ['/node_modules/react/index.js']),
    'assets/app.js': chunk('assets/app.js', ['/web/src/app/authenticated-app.tsx'], ['assets/index.js', 'assets/react.js', 'assets/button.js']),
    'assets/button.js': chunk('assets/button.js', ['/web/src/components/ui/button.tsx'], ['assets/react.js']),
    // A lazy module sharing its chunk with another: found by the modules the chunk holds.
    'assets/chart.js': chunk(
      'assets/chart.js',
      ['/web/src/app/chart-header-data.ts', '/web/src/app/patient-chart-page.tsx'],
      ['assets/app.js', 'assets/menu.js'],
      ['assets/chart.css'],
    ),
    'assets/menu.js': chunk('assets/menu.js', ['/web/src/components/ui/menu.tsx'], ['assets/button.js', 'assets/react.js']),
    'assets/visits.js': chunk('assets/visits.js', ['/web/src/features/calendar/components/next-visits.tsx'], ['assets/menu.js']),
    'assets/health.js': chunk('assets/health.js', ['/web/src/features/chart/components/health-summary.tsx'], ['assets/menu.js']),
    'assets/chart.css': { type: 'asset' as const, fileName: 'assets/chart.css' },
  };

  it("lists the modules' chunks, what they import and their CSS, less what index.html and the app's own import ask for", () => {
    const files = landingScreenCodeFiles(bundle, ['/web/src/app/patient-chart-page.tsx', '/web/src/features/calendar/components/next-visits.tsx'], APP);
    // The app's chunk and its button are asked for by the app's own import, so they are not listed.
    expect(files.sort()).toEqual(['assets/chart.css', 'assets/chart.js', 'assets/menu.js', 'assets/visits.js']);
  });

  it('fails the build when a module named has no chunk, rather than preloading nothing', () => {
    expect(() => landingScreenCodeFiles(bundle, ['/web/src/app/renamed-page.tsx'], APP)).toThrow('No chunk is built for /web/src/app/renamed-page.tsx');
  });
});

describe('withoutImportersOwnChunks', () => {
  const bundle = {
    'assets/index.js': chunk('assets/index.js', ['/web/src/main.tsx'], ['assets/react.js'], [], true),
    'assets/react.js': chunk('assets/react.js', ['/node_modules/react/index.js']),
    'assets/chart.js': chunk('assets/chart.js', ['/web/src/app/patient-chart-page.tsx'], ['assets/index.js', 'assets/menu.js']),
    'assets/menu.js': chunk('assets/menu.js', ['/web/src/components/ui/menu.tsx'], ['assets/react.js']),
    'assets/select.js': chunk('assets/select.js', ['/web/src/components/ui/select.tsx'], ['assets/react.js']),
    'assets/health.js': chunk('assets/health.js', ['/web/src/features/chart/components/health-summary.tsx'], ['assets/menu.js', 'assets/select.js']),
  };
  const healthDeps = ['assets/health.js', 'assets/menu.js', 'assets/react.js', 'assets/select.js'];
  const built = () => {
    const lists = withoutImportersOwnChunks();
    const generate = lists.plugin.generateBundle as { handler: (options: unknown, output: unknown) => void };
    generate.handler({}, bundle);
    return lists;
  };

  it("leaves out of a dynamic import's preload list the chunks its importer already loaded to run", () => {
    // The chart page, running, has its menu and React loaded: only the health summary and its select are asked for.
    expect(built().resolveDependencies('assets/health.js', healthDeps, { hostId: 'assets/chart.js', hostType: 'js' })).toEqual([
      'assets/health.js',
      'assets/select.js',
    ]);
    // An importer that loaded less keeps more of the list.
    expect(built().resolveDependencies('assets/health.js', healthDeps, { hostId: 'assets/index.js', hostType: 'js' })).toEqual([
      'assets/health.js',
      'assets/menu.js',
      'assets/select.js',
    ]);
  });

  it('keeps the whole list for index.html and before the bundle is known', () => {
    expect(built().resolveDependencies('assets/health.js', healthDeps, { hostId: 'index.html', hostType: 'html' })).toEqual(healthDeps);
    expect(withoutImportersOwnChunks().resolveDependencies('assets/health.js', healthDeps, { hostId: 'assets/chart.js', hostType: 'js' })).toEqual(healthDeps);
  });
});

describe('declarationOnlyLibraries', () => {
  /**
   * Bundles, from the installed packages, a start that configures Amplify as main.tsx does and a
   * lazy screen that hashes with SHA-256 (as SRP sign-in does); gives each chunk's code.
   */
  async function chunks(plugins: Plugin[]): Promise<{ start: string; screen: string }> {
    // Inside web/, so that the packages resolve from the project's node_modules as the app's do.
    const dir = mkdtempSync(join(import.meta.dirname, '.bundle-'));
    try {
      writeFileSync(
        join(dir, 'start.js'),
        [
          "import { Amplify } from 'aws-amplify';",
          "import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';",
          "import { fetchAuthSession, getCurrentUser, signOut } from 'aws-amplify/auth';",
          "import { defaultStorage, Hub } from 'aws-amplify/utils';",
          'Amplify.configure({});',
          'cognitoUserPoolsTokenProvider.setKeyValueStorage(defaultStorage);',
          'console.log(fetchAuthSession, getCurrentUser, signOut, Hub);',
          "document.addEventListener('click', () => import('./screen.js').then((screen) => screen.hash()));",
        ].join('\n'),
      );
      writeFileSync(join(dir, 'screen.js'), "import { Sha256 } from '@aws-crypto/sha256-js';\nexport const hash = () => new Sha256();\n");
      const output = (await build({
        configFile: false,
        root: dir,
        logLevel: 'silent',
        plugins,
        build: { write: false, minify: false, rollupOptions: { input: join(dir, 'start.js') } },
      })) as Rollup.RollupOutput;
      const code = (lazy: boolean) =>
        output.output
          .filter((file): file is Rollup.OutputChunk => file.type === 'chunk' && file.isDynamicEntry === lazy)
          .map((file) => file.code)
          .join('\n');
      return { start: code(false), screen: code(true) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // SHA-256's first round constant: present only where the hash's code is.
  const SHA256_TABLE = /0x428a2f98|1116352408/;

  it("keeps SHA-256 out of the start's code, where Amplify's core imports it bare, and in the screen that calls it", async () => {
    const without = await chunks([]);
    expect(without.start).toMatch(SHA256_TABLE);
    const marked = await chunks([declarationOnlyLibraries()]);
    expect(marked.start).not.toMatch(SHA256_TABLE);
    expect(marked.screen).toMatch(SHA256_TABLE);
  }, 60_000);
});
