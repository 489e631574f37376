import { join } from 'node:path';
import { readManifest, type CodeSetKind, type CodeSetManifest } from '../../functions/lib/code-sets/code-set-store.js';
import { importCvx, importIcd10, importIcd10Index, importMvx } from '../../functions/lib/code-sets/importers.js';

/**
 * The public-domain code sets shipped with the product, gzip-compressed beside this file (see
 * README.md here): ICD-10-CM FY2027 (CMS/CDC-NCHS), the FY2025 ICD-10-CM Alphabetic Index
 * (CDC/NCHS), CVX and MVX (CDC). Every install searches the full release from its first start;
 * `npm run import:codes` stays for newer releases.
 */
export const BUNDLED_CODE_SETS = [
  { kind: 'icd10', file: join(import.meta.dirname, 'icd10cm-codes-2027.txt.gz'), load: importIcd10 },
  { kind: 'icd10index', file: join(import.meta.dirname, 'icd10cm-index-2025.csv.gz'), load: importIcd10Index },
  { kind: 'cvx', file: join(import.meta.dirname, 'cvx.txt.gz'), load: importCvx },
  { kind: 'mvx', file: join(import.meta.dirname, 'mvx.txt.gz'), load: importMvx },
] as const satisfies readonly { kind: CodeSetKind; file: string; load: (path: string) => Promise<CodeSetManifest> }[];

/**
 * Loads each shipped set the practice has none of yet (an imported newer release is kept), into
 * the table and files bucket the environment names. Answers what it loaded.
 */
export async function loadBundledCodeSets(options: { force?: boolean } = {}): Promise<CodeSetManifest[]> {
  const loaded: CodeSetManifest[] = [];
  for (const set of BUNDLED_CODE_SETS) {
    if (!options.force && (await readManifest(set.kind))) continue;
    loaded.push(await set.load(set.file));
  }
  return loaded;
}
