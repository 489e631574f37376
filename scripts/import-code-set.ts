/**
 * `npm run import:codes -- <icd10|cvx|mvx|ndc|drugclass|ddi> <path> [package.txt]`
 * `npm run import:codes -- bundled`: the ICD-10-CM, CVX and MVX releases shipped in
 * infra/code-sets (a deployed stack's post-deploy step; `npm start` loads them by itself).
 *
 * Loads an official code-set release into the product:
 * - icd10: icd10cm_codes_YYYY.txt or icd10cm_order_YYYY.txt (CMS "Code Descriptions in Tabular Order");
 * - cvx / mvx: CDC cvx.txt / mvx.txt;
 * - ndc: the FDA NDC directory's product.txt (package.txt beside it), or the folder holding both;
 * - drugclass: the same product.txt (or its folder): ingredients and their pharmacologic classes
 *   for the allergy checks;
 * - ddi: a drug–drug interaction list as TSV (docs: README "Allergy and interaction checks").
 * With TABLE_NAME, FILES_BUCKET and PRACTICE_ID set (an AWS stack, with its credentials) it writes
 * there; otherwise it opens the local runtime's data folder (TIDEWELL_DATA_DIR, default .local),
 * which must not be in use by `npm start` at the same time.
 */
import { resolve } from 'node:path';
import { IMPORTERS } from '../functions/lib/code-sets/importers.js';
import type { CodeSetKind } from '../functions/lib/code-sets/code-set-store.js';

async function main(): Promise<void> {
  const [kind, path, extra] = process.argv.slice(2).filter((a) => a !== '--');
  const importer = IMPORTERS[kind as CodeSetKind];
  if (kind !== 'bundled' && (!importer || !path)) {
    console.error('Usage: npm run import:codes -- <icd10|cvx|mvx|ndc|drugclass|ddi> <path> [package.txt] | bundled');
    process.exit(2);
  }
  let stop: (() => Promise<void>) | undefined;
  if (!(process.env.TABLE_NAME && process.env.FILES_BUCKET && process.env.PRACTICE_ID)) {
    process.env.TIDEWELL_LOG ??= 'silent';
    const { startLocalRuntime } = await import('../infra/local/runtime.js');
    const dataDir = resolve(process.env.TIDEWELL_DATA_DIR ?? '.local');
    const runtime = await startLocalRuntime({ dataDir, port: 0, serveWeb: false, seed: true });
    stop = () => runtime.stop();
    console.log(`Local runtime data folder: ${dataDir}`);
  }
  try {
    if (kind === 'bundled') {
      const { loadBundledCodeSets } = await import('../infra/code-sets/bundled.js');
      for (const manifest of await loadBundledCodeSets({ force: true }))
        console.log(`Imported ${manifest.source.count} ${manifest.kind} codes: ${manifest.source.label} → ${manifest.objectKey}`);
      return;
    }
    const manifest = await importer(resolve(path), extra ? resolve(extra) : undefined);
    console.log(`Imported ${manifest.source.count} ${kind} codes: ${manifest.source.label} → ${manifest.objectKey}`);
  } finally {
    await stop?.();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
