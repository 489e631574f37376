import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { LANDING_SCREEN_CODE_ID, type LandingScreen } from './src/lib/landing-screen-code.js';

const FLOWS = fileURLToPath(new URL('./src/features/auth/sign-in-flows.ts', import.meta.url));
const AUTH_SHIM = '\0tidewell:amplify-ui-auth';
const QRCODE_SHIM = '\0tidewell:amplify-ui-qrcode';

/** What Amplify UI imports from 'aws-amplify/auth' besides what the app shell already loads. */
const FLOW_NAMES = [
  'associateWebAuthnCredential',
  'autoSignIn',
  'confirmResetPassword',
  'confirmSignIn',
  'confirmSignUp',
  'confirmUserAttribute',
  'deleteUser',
  'fetchUserAttributes',
  'listWebAuthnCredentials',
  'resendSignUpCode',
  'resetPassword',
  'sendUserAttributeVerificationCode',
  'signIn',
  'signInWithRedirect',
  'signUp',
  'updatePassword',
];

const authShim = [
  // The session check and sign-out are in the first download anyway (the app shell uses them).
  "export { getCurrentUser, signOut } from 'aws-amplify/auth';",
  `const flows = () => import(${JSON.stringify(FLOWS)});`,
  ...FLOW_NAMES.map((name) => `export const ${name} = (...args) => flows().then((m) => m.${name}(...args));`),
].join('\n');

// Only the TOTP set-up screen draws a QR code, and it awaits toDataURL.
const qrcodeShim = "export default { toDataURL: (...args) => import('qrcode').then((m) => (m.default ?? m).toDataURL(...args)) };";

const fromAmplifyUi = (importer: string | undefined) => Boolean(importer && /[\\/]node_modules[\\/]@aws-amplify[\\/]ui(-react(-core)?)?[\\/]/.test(importer));

/**
 * The sign-in screen must show within the first-screen budget (issue 13), and Amplify UI's
 * Authenticator imports every Amplify Auth flow and a QR code library up front. Every one of those
 * calls is asynchronous, so for imports made by Amplify UI this plugin answers with modules whose
 * functions load the real code on their first call. The Authenticator and its flows are unchanged;
 * an Amplify UI release that imports a new name fails the build here instead of failing silently.
 */
export function deferSignInCode(): Plugin {
  return {
    name: 'tidewell-defer-sign-in-code',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!fromAmplifyUi(importer)) return null;
      if (source === 'aws-amplify/auth') return AUTH_SHIM;
      if (source === 'qrcode') return QRCODE_SHIM;
      return null;
    },
    load(id) {
      if (id === AUTH_SHIM) return authShim;
      if (id === QRCODE_SHIM) return qrcodeShim;
      return null;
    },
  };
}

const ARIA_STRINGS = /[\\/]node_modules[\\/]react-aria(-components)?[\\/]dist[\\/].*intlStrings\.mjs$/;
const OTHER_LOCALE_IMPORT = /^import \S+ from "[^"]*\/(?!en-US\.mjs")[a-z]{2}-[A-Z]{2}\.mjs";$/gm;
const OTHER_LOCALE_ENTRY = /^\s*"(?!en-US")[a-z]{2}-[A-Z]{2}": \S+,?$/gm;

/**
 * React Aria ships its built-in labels ('Close', 'Clear search', 'notifications') in 34 languages
 * and bundles all of them with every component. Tidewell's screens are English only, and React
 * Aria falls back to en-US for a locale it has no strings for, so only en-US is kept: the labels
 * stay in the language of the rest of the screen. (What @react-aria/optimize-locales-plugin does.)
 */
export function englishOnlyAriaStrings(): Plugin {
  return {
    name: 'tidewell-english-only-aria-strings',
    transform(code, id) {
      if (!ARIA_STRINGS.test(id)) return null;
      return { code: code.replace(OTHER_LOCALE_IMPORT, '').replace(OTHER_LOCALE_ENTRY, ''), map: null };
    },
  };
}

const AMPLIFY_THEME = /[\\/]@aws-amplify[\\/]ui-react[\\/]dist[\\/]styles[\\/]base\.layer\.css$/;
const SIGN_IN_STYLES = fileURLToPath(new URL('./src/features/auth/amplify-ui.css', import.meta.url));
const VAR_REF = /var\(\s*(--amplify-[\w-]+)/g;
const DECLARATION = /^\s*(--amplify-[\w-]+):\s*(.*);\s*$/gm;

/**
 * Amplify UI's theme declares about a thousand component tokens for components the sign-in
 * screen never draws (accordion, file uploader, AI conversation ...). Only the tokens the
 * stylesheets in features/auth/amplify-ui.css use, directly or through other tokens, are kept;
 * every colour, space and font token stays.
 */
export function onlyUsedAmplifyTokens(): Plugin {
  return {
    name: 'tidewell-only-used-amplify-tokens',
    enforce: 'pre',
    transform(code, id) {
      if (!AMPLIFY_THEME.test(id.split('?')[0])) return null;
      const styles = dirname(id.split('?')[0]);
      const imported = [...readFileSync(SIGN_IN_STYLES, 'utf8').matchAll(/@import '@aws-amplify\/ui-react\/styles\/([\w.]+\.css)'/g)].map((m) => m[1]);
      const declared = new Map([...code.matchAll(DECLARATION)].map((m) => [m[1], m[2]]));
      const used = new Set<string>();
      const pending = imported.flatMap((file) => [...readFileSync(join(styles, file), 'utf8').matchAll(VAR_REF)].map((m) => m[1]));
      for (let token = pending.pop(); token !== undefined; token = pending.pop()) {
        if (used.has(token)) continue;
        used.add(token);
        pending.push(...[...(declared.get(token) ?? '').matchAll(VAR_REF)].map((m) => m[1]));
      }
      const kept = code
        .split('\n')
        .filter((line) => {
          const token = /^\s*(--amplify-components-[\w-]+):/.exec(line)?.[1];
          return token === undefined || used.has(token);
        })
        .join('\n');
      return { code: kept, map: null };
    },
  };
}

/**
 * React Router's package exports name only its development build; the production build beside it
 * is the same code with its developer warnings switched off (a route table checked for mistakes on
 * every render of the router, and the warnings' text). A built app takes the production one.
 */
export function productionReactRouter(): Plugin {
  const dist = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist', 'production');
  const files = new Map([
    ['react-router', join(dist, 'index.mjs')],
    ['react-router/dom', join(dist, 'dom-export.mjs')],
  ]);
  return {
    name: 'tidewell-production-react-router',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      // A release that moves the build fails the build here, rather than shipping the development one unnoticed.
      for (const file of files.values()) if (!existsSync(file)) this.error(`React Router's production build is not at ${file}`);
    },
    resolveId(source) {
      return files.get(source) ?? null;
    },
  };
}

const SYNC_STORE_SHIM = '\0tidewell:use-sync-external-store-shim';

/**
 * React Aria and Amplify UI still import the use-sync-external-store shim for React 17; React 19
 * has the hook itself, so the shim's fallback code is left out of every screen.
 */
export function nativeSyncExternalStore(): Plugin {
  return {
    name: 'tidewell-native-sync-external-store',
    enforce: 'pre',
    resolveId(source) {
      return source === 'use-sync-external-store/shim' || source === 'use-sync-external-store/shim/index.js' ? SYNC_STORE_SHIM : null;
    },
    load(id) {
      return id === SYNC_STORE_SHIM ? "export { useSyncExternalStore } from 'react';" : null;
    },
  };
}

/** What `landingScreenCodeFiles` reads of a built chunk: Rollup's and Vite's own fields. */
interface BuiltChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  /** The modules the chunk holds (a lazy module may share its chunk with others and be no facade). */
  moduleIds?: string[];
  imports?: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The files a chunk needs loaded before it runs: itself, the chunks it imports statically, theirs, and their CSS. */
function staticClosure(bundle: Record<string, BuiltChunk>, start: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || seen.has(fileName)) return;
    seen.add(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  start.forEach(visit);
  return seen;
}

/**
 * The files a screen's modules need before they can run (their chunks, the chunks those import,
 * and their CSS), less those index.html already loads and those the page asks for anyway with the
 * module loaded alongside (the signed-in app, whose import preloads its own chunks).
 */
export function landingScreenCodeFiles(bundle: Record<string, BuiltChunk>, modules: readonly string[], alongside: string): string[] {
  const closure = (start: string[]) => staticClosure(bundle, start);
  const chunks = Object.values(bundle).filter((chunk) => chunk.type === 'chunk');
  const chunkOf = (module: string) => {
    const chunk = chunks.find((c) => c.moduleIds?.includes(module));
    if (!chunk) throw new Error(`No chunk is built for ${module}`);
    return chunk.fileName;
  };
  const askedAnyway = closure([...chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName), chunkOf(alongside)]);
  return [...closure(modules.map(chunkOf))].filter((file) => !askedAnyway.has(file));
}

/**
 * A returning user landing on the dashboard or a chart needs that screen's code (the dashboard
 * page; the chart page and its next visits) as much as the signed-in app's, but the router asks
 * for it only once the app's code has arrived and run: on a phone's network one more round trip
 * and download in a row. index.html lists those files per screen, so main.tsx can preload them
 * beside the app's code without running them (the app sets zod up before any schema module runs).
 * A data block, not a script: the page's CSP stays as is.
 */
export function landingScreenCode(screens: Record<LandingScreen, readonly string[]>, alongside: string): Plugin {
  return {
    name: 'tidewell-landing-screen-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return [];
        const bundle = ctx.bundle as unknown as Record<string, BuiltChunk>;
        const lists = Object.fromEntries(
          Object.entries(screens).map(([screen, modules]) => [screen, landingScreenCodeFiles(bundle, modules, alongside).map((file) => `./${file}`)]),
        );
        return [{ tag: 'script', attrs: { type: 'application/json', id: LANDING_SCREEN_CODE_ID }, children: JSON.stringify(lists), injectTo: 'body' }];
      },
    },
  };
}

/** Vite's `build.modulePreload.resolveDependencies`: the JS chunks a dynamic import preloads, by importer. */
type ResolveDependencies = (imported: string, deps: string[], context: { hostId: string; hostType: 'html' | 'js' }) => string[];

/**
 * Vite's preload list for a dynamic import names every chunk the imported module needs, including
 * those its importer imports statically; at run time its helper looks for each among the page's
 * links before appending what is missing (on a chart, 57 names for the health summary, 40 of them
 * already loaded with the chart page). A running importer has all of its static imports loaded,
 * so each list leaves them out. CSS stays listed: Vite does not pass it here.
 */
export function withoutImportersOwnChunks(): { plugin: Plugin; resolveDependencies: ResolveDependencies } {
  let bundle: Record<string, BuiltChunk> | undefined;
  const loaded = new Map<string, Set<string>>();
  return {
    plugin: {
      name: 'tidewell-without-importers-own-chunks',
      apply: 'build',
      // Before Vite's import analysis, whose own generateBundle calls resolveDependencies.
      generateBundle: {
        order: 'pre',
        handler(_options, output) {
          bundle = output as unknown as Record<string, BuiltChunk>;
          loaded.clear();
        },
      },
    },
    resolveDependencies(_imported, deps, { hostId, hostType }) {
      if (!bundle || hostType !== 'js') return deps;
      let ownChunks = loaded.get(hostId);
      if (!ownChunks) loaded.set(hostId, (ownChunks = staticClosure(bundle, [hostId])));
      return deps.filter((dep) => !ownChunks.has(dep));
    },
  };
}

/** Libraries whose modules only declare: imported for no export, they add nothing to a screen. */
const DECLARATION_ONLY = /[\\/]node_modules[\\/](@aws-crypto[\\/](sha256-js|util)|@smithy[\\/]util-(hex-encoding|utf8)|js-cookie)[\\/]/;

/**
 * Amplify's modules keep bare imports (`import '@aws-crypto/sha256-js'`) of libraries whose
 * package.json does not say they are free of side effects, so a bundler keeps their code in every
 * screen that loads Amplify, used or not. They only declare classes and functions: marked so,
 * they stay only where something calls them.
 */
export function declarationOnlyLibraries(): Plugin {
  return {
    name: 'tidewell-declaration-only-libraries',
    transform(code, id) {
      return DECLARATION_ONLY.test(id) ? { code, map: null, moduleSideEffects: false } : null;
    },
  };
}
