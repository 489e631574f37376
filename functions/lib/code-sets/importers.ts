import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename, dirname, join } from 'node:path';
import type { CodeSetSource } from '../../../shared/chart/code-sets.js';
import { latestUpdate, parseCvx, parseMvx } from './cdc-parse.js';
import { writeCodeSet, type CodeSetKind, type CodeSetManifest } from './code-set-store.js';
import type { CvxPayload, Icd10IndexPayload, Icd10Payload, MvxPayload, NdcPayload } from './code-sets.js';
import { icd10IndexTerms, parseIcd10IndexCsv } from './icd10-index-parse.js';
import { icd10YearFromFileName, parseIcd10 } from './icd10-parse.js';
import { parseNdcDirectory } from './ndc.js';

/** A release file as text, gzip-compressed (name ending .gz, as the product ships them) or not. */
function readRelease(path: string, encoding: BufferEncoding = 'utf8'): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString(encoding);
}
const releaseName = (path: string) => basename(path).replace(/\.gz$/, '');

/** Reads an official release file, checks its layout, and stores the serialized set for the Lambdas. */
export async function importIcd10(path: string): Promise<CodeSetManifest> {
  const { layout, entries } = parseIcd10(readRelease(path));
  const year = icd10YearFromFileName(releaseName(path));
  const source: CodeSetSource = {
    kind: 'official',
    label: `ICD-10-CM${year ? ` FY${year}` : ''} (${layout} file ${releaseName(path)})`,
    // A fiscal-year release takes effect on October 1 of the year before.
    ...(year ? { releaseDate: `${year - 1}-10-01` } : {}),
    count: entries.length,
  };
  return writeCodeSet('icd10', { entries } satisfies Icd10Payload, source);
}

/** The alphabetic index flattened to CSV (icd10-index-parse.ts): each entry's path and the code it leads to. */
export async function importIcd10Index(path: string): Promise<CodeSetManifest> {
  const rows = parseIcd10IndexCsv(readRelease(path));
  const terms = icd10IndexTerms(rows);
  const year = /(\d{4})/.exec(releaseName(path))?.[1];
  return writeCodeSet('icd10index', { terms } satisfies Icd10IndexPayload, {
    kind: 'official',
    label: `ICD-10-CM${year ? ` FY${year}` : ''} Alphabetic Index (${releaseName(path)})`,
    count: terms.length,
  });
}

export async function importCvx(path: string): Promise<CodeSetManifest> {
  const items = parseCvx(readRelease(path));
  return writeCodeSet('cvx', { items } satisfies CvxPayload, {
    kind: 'official',
    label: `CDC CVX (${releaseName(path)})`,
    releaseDate: latestUpdate(items),
    count: items.length,
  });
}

export async function importMvx(path: string): Promise<CodeSetManifest> {
  const items = parseMvx(readRelease(path));
  return writeCodeSet('mvx', { items } satisfies MvxPayload, {
    kind: 'official',
    label: `CDC MVX (${releaseName(path)})`,
    releaseDate: latestUpdate(items),
    count: items.length,
  });
}

/** `path` is product.txt (package.txt beside it) or the folder holding both. */
export async function importNdc(path: string, packagePath?: string): Promise<CodeSetManifest> {
  const productPath = path.endsWith('.txt') ? path : join(path, 'product.txt');
  const pkgPath = packagePath ?? join(dirname(productPath), 'package.txt');
  const items = parseNdcDirectory(readFileSync(productPath, 'latin1'), readFileSync(pkgPath, 'latin1'));
  return writeCodeSet('ndc', { items } satisfies NdcPayload, { kind: 'official', label: 'FDA NDC directory', count: items.length });
}

/** Drug classes for the allergy checks: `path` is the NDC directory's product.txt or its folder. */
export async function importDrugClasses(path: string): Promise<CodeSetManifest> {
  const { parseDrugClasses } = await import('../drug-safety/parse.js');
  const productPath = path.endsWith('.txt') ? path : join(path, 'product.txt');
  const payload = parseDrugClasses(readFileSync(productPath, 'latin1'));
  return writeCodeSet('drugclass', payload, {
    kind: 'official',
    label: `FDA NDC directory pharmacologic classes (${basename(productPath)})`,
    releaseDate: statSync(productPath).mtime.toISOString().slice(0, 10),
    count: payload.ingredients.length,
  });
}

/** The interaction list for the interaction checks, as TSV (README "Allergy and interaction checks"). */
export async function importDdi(path: string): Promise<CodeSetManifest> {
  const { parseDdiTsv } = await import('../drug-safety/parse.js');
  const { payload, label, releaseDate } = parseDdiTsv(readFileSync(path, 'utf8'));
  return writeCodeSet('ddi', payload, {
    kind: 'official',
    label: label ?? `Drug–drug interaction list (${basename(path)})`,
    ...(releaseDate ? { releaseDate } : {}),
    count: payload.pairs.length,
  });
}

export const IMPORTERS: Record<CodeSetKind, (path: string, extra?: string) => Promise<CodeSetManifest>> = {
  icd10: importIcd10,
  icd10index: importIcd10Index,
  cvx: importCvx,
  mvx: importMvx,
  ndc: importNdc,
  drugclass: importDrugClasses,
  ddi: importDdi,
};
