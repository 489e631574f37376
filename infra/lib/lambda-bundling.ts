import type { BuildOptions, Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * ESM bundles: middy 6 ships ESM only and handlers may use import.meta. The banner gives
 * CommonJS dependencies bundled into the ESM output a working `require`.
 */
const ESM_REQUIRE_BANNER = "import { createRequire as __tidewellCreateRequire } from 'module'; const require = __tidewellCreateRequire(import.meta.url);";

/**
 * The one set of esbuild options every Lambda is bundled with. The stack and the budget tooling
 * both build through `esbuildOptions` below, so the sizes the budgets report are the sizes that deploy.
 */
export const LAMBDA_ESBUILD = {
  format: 'esm',
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  // Rare paths (sending email, importing code sets) sit behind import(): split into their own
  // chunks, they cost a cold start nothing until used. In one file they would stay in the bundle
  // and keep esbuild from tree-shaking what they reach.
  splitting: true,
  // The SDK is bundled so deployed code runs the versions pinned in the lockfile, not the runtime's.
  external: [] as string[],
  // Smaller stand-ins for what a Lambda does not need: the full credential chain (Lambda gives
  // credentials in the environment only) and mnemonist's LRU; see each file for why.
  alias: {
    '@aws-sdk/credential-provider-node': './functions/lib/adapters/lambda-credentials.ts',
    'mnemonist/lru-cache': './functions/lib/adapters/endpoint-lru-cache.ts',
  } as Record<string, string>,
} as const;

/** Node options every Lambda runs with (and the module-init measurement starts node with). */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/** The handler file Lambda loads: index.mjs, beside its chunks/. */
export const LAMBDA_ENTRY_FILE = 'index.mjs';

/**
 * An SDK client imports its whole package.json for one field, the version its user agent names:
 * about 2.3 KB of scripts, dependencies and keywords in every bundle per client. The version (and
 * the name) are all the bundle keeps.
 */
export const sdkPackageVersionOnly: Plugin = {
  name: 'sdk-package-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/ }, (args) => {
      const { name, version } = JSON.parse(readFileSync(args.path, 'utf8')) as { name: string; version: string };
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

/** esbuild's build options for one handler module, written into outdir. */
export function esbuildOptions(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: [entry],
    outdir,
    entryNames: 'index',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: LAMBDA_ESBUILD.splitting,
    platform: LAMBDA_ESBUILD.platform,
    format: LAMBDA_ESBUILD.format,
    target: LAMBDA_ESBUILD.target,
    mainFields: [...LAMBDA_ESBUILD.mainFields],
    banner: { js: LAMBDA_ESBUILD.banner },
    minify: LAMBDA_ESBUILD.minify,
    sourcemap: LAMBDA_ESBUILD.sourcemap,
    sourcesContent: LAMBDA_ESBUILD.sourcesContent,
    external: [...LAMBDA_ESBUILD.external],
    alias: { ...LAMBDA_ESBUILD.alias },
    plugins: [sdkPackageVersionOnly],
    metafile: true,
    logLevel: 'silent',
  };
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * NodejsFunction bundling props. NodejsFunction runs esbuild with --outfile, which cannot split
 * chunks, so its output is replaced after bundling: scripts/budgets/bundle-lambda.ts builds the
 * same entry through `esbuildOptions` into the asset folder. Its own flags mirror ours so the first
 * pass resolves the same modules (and fails the same way).
 */
export function cdkBundling(entry: string): BundlingOptions {
  const aliases = Object.entries(LAMBDA_ESBUILD.alias).map(([from, to]) => `${from}=${to}`);
  return {
    format: OutputFormat.ESM,
    target: LAMBDA_ESBUILD.target,
    mainFields: [...LAMBDA_ESBUILD.mainFields],
    banner: LAMBDA_ESBUILD.banner,
    minify: LAMBDA_ESBUILD.minify,
    sourceMap: LAMBDA_ESBUILD.sourcemap,
    sourcesContent: LAMBDA_ESBUILD.sourcesContent,
    externalModules: [...LAMBDA_ESBUILD.external],
    esbuildArgs: aliases.length ? { '--alias': aliases } : {},
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        `cd ${shellQuote(inputDir)} && node --import tsx scripts/budgets/bundle-lambda.ts ${shellQuote(entry)} ${shellQuote(outputDir)}`,
      ],
    },
  };
}
