import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * ESM bundles: middy 6 ships ESM only and handlers may use import.meta. The banner gives
 * CommonJS dependencies bundled into the ESM output a working `require`.
 */
const ESM_REQUIRE_BANNER = "import { createRequire as __tidewellCreateRequire } from 'module'; const require = __tidewellCreateRequire(import.meta.url);";

/**
 * The one set of esbuild options every group Lambda is bundled with. The stack (through
 * NodejsFunction) and the budget tooling (through esbuild's API) both derive from it, so the
 * sizes the budgets report are the sizes that deploy.
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
  // The SDK is bundled so deployed code runs the versions pinned in the lockfile, not the runtime's.
  external: [] as string[],
  // Lambda gives credentials in the environment only; see functions/lib/adapters/lambda-credentials.ts.
  alias: { '@aws-sdk/credential-provider-node': './functions/lib/adapters/lambda-credentials.ts' } as Record<string, string>,
} as const;

/** esbuild CLI form of the aliases: `--alias:from=to` (relative targets resolve from the repository root). */
function aliasArgs(): Record<string, string[]> {
  const pairs = Object.entries(LAMBDA_ESBUILD.alias).map(([from, to]) => `${from}=${to}`);
  return pairs.length ? { '--alias': pairs } : {};
}

/** Node options every group Lambda runs with (and the module-init measurement starts node with). */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/** The same options as NodejsFunction bundling props. */
export function cdkBundling(): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: LAMBDA_ESBUILD.target,
    mainFields: [...LAMBDA_ESBUILD.mainFields],
    banner: LAMBDA_ESBUILD.banner,
    minify: LAMBDA_ESBUILD.minify,
    sourceMap: LAMBDA_ESBUILD.sourcemap,
    sourcesContent: LAMBDA_ESBUILD.sourcesContent,
    externalModules: [...LAMBDA_ESBUILD.external],
    esbuildArgs: aliasArgs(),
  };
}

/** The same options for esbuild's build API (what `check:budgets` and the bench bundle with). */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
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
    metafile: true,
    logLevel: 'silent',
  };
}
