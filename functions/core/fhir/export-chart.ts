import { zipSync } from 'fflate';
import type { FhirExportResult } from '../../../shared/chart/fhir.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { store } from '../fhir-bulk/files-store.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { storedKey } from '../../lib/files/presign.js';
import { chartBundle, type FhirBundle } from './bundle.js';
import { loadChartSource } from './chart-source.js';

/** How long the link to an exported chart works. */
export const EXPORT_LINK_SECONDS = 900;

export interface ChartZip {
  bundle: FhirBundle;
  zip: Uint8Array;
  files: number;
  missingFiles: string[];
}

/** bundle.json and every attached file's bytes, in one zip; a file gone from storage is named in missing-files.txt. */
export async function chartZip(practiceId: string, patientId: string, at = new Date()): Promise<ChartZip> {
  const source = await loadChartSource(practiceId, patientId);
  const bundle = chartBundle(source, at);
  const { s3, bucket } = store();
  const entries: Record<string, Uint8Array> = { 'bundle.json': new TextEncoder().encode(JSON.stringify(bundle, null, 1)) };
  const missingFiles: string[] = [];
  for (const [key, path] of source.filePaths) {
    try {
      entries[path] = await s3.getObject({ bucket, key: storedKey(key) });
    } catch {
      missingFiles.push(path);
    }
  }
  if (missingFiles.length > 0) entries['missing-files.txt'] = new TextEncoder().encode(`${missingFiles.join('\n')}\n`);
  // Files are mostly PDFs and images, already compressed: only the bundle is worth deflating hard.
  const zip = zipSync(entries, { level: 1, mtime: at });
  return { bundle, zip, files: source.filePaths.size - missingFiles.length, missingFiles };
}

/** GET /v1/patients/{patientId}/fhir-export: the zip is written to the practice's bucket and handed out by an expiring link. */
export async function exportChart(auth: AuthContext, patientId: string, at = new Date()): Promise<FhirExportResult> {
  const { bundle, zip, files, missingFiles } = await chartZip(auth.practiceId, patientId, at);
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const fileName = `chart-${patientId}-${stamp}.zip`;
  const key = `exports/fhir/patients/${patientId}/${fileName}`;
  const { s3, bucket } = store();
  await s3.putObject({ bucket, key }, zip, { contentType: 'application/zip' });
  const url = await s3.presignGet({ bucket, key }, EXPORT_LINK_SECONDS);
  await writeAudit(auth, { action: 'read', entity: 'fhir_export', entityId: fileName, patientId, count: bundle.entry.length });
  return { url, fileName, resources: bundle.entry.length, files, missingFiles: missingFiles.length, bytes: zip.length, expiresInSeconds: EXPORT_LINK_SECONDS };
}
