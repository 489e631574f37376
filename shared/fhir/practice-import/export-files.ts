/**
 * A whole-practice FHIR Bulk Data export as the practice import reads it (the CLI from a folder, the
 * Data import screen from the files an admin picks): its NDJSON files, parsed one resource a line.
 * Pure TS: the CLI and the browser both read the files and hand their text here.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Why the export cannot be imported, in words an admin can act on. `refused`: the API refused the admin's token or role. */
export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    message: string,
    readonly kind: 'bad-export' | 'refused' | 'failed' = 'failed',
  ) {
    super(message);
  }
}

export interface ParsedExport {
  resources: Json[];
  /** Resources per type, as the export's counts would say. */
  counts: Record<string, number>;
  bytes: number;
}

const encoder = new TextEncoder();
/** Bytes of a string as UTF-8 (the request's weight). */
export const utf8Bytes = (text: string) => encoder.encode(text).length;

export const isNdjsonName = (name: string) => name.toLowerCase().endsWith('.ndjson');

/**
 * Every NDJSON file given (a Tidewell export's batch parts Type.0000.ndjson too), in name order;
 * OperationOutcome files are the export's errors, not data. A line that is not a resource stops the
 * read with its file and line named.
 */
export function parseExport(files: { name: string; text: string }[]): ParsedExport {
  const resources: Json[] = [];
  const counts: Record<string, number> = {};
  let bytes = 0;
  for (const { name, text } of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    bytes += utf8Bytes(text);
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let r: Json;
      try {
        r = JSON.parse(line) as Json;
      } catch {
        throw new ImportError(`${name} line ${i + 1} is not JSON: an NDJSON file holds one resource per line.`, 'bad-export');
      }
      if (typeof r?.resourceType !== 'string') throw new ImportError(`${name} line ${i + 1} is not a FHIR resource (it has no resourceType).`, 'bad-export');
      if (r.resourceType === 'OperationOutcome') return;
      resources.push(r);
      counts[r.resourceType] = (counts[r.resourceType] ?? 0) + 1;
    });
  }
  return { resources, counts, bytes };
}

/** Bytes as base64 (an attachment's data), in chunks so a large file does not overflow the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
