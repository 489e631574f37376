import { describe, expect, it } from 'vitest';
import { bulkExportFromItem } from './bulk-export-repository.js';

/** A record as the first exports wrote it, before their files, merged files, missing files and API base were kept. */
const first = {
  practiceId: 'prc_1',
  sk: 'FHIRBULK#0b6f3c1e-0001',
  entityType: 'FhirBulkExport',
  exportId: '0b6f3c1e-0001',
  status: 'failed',
  startedAt: '2026-11-28T10:00:00.000Z',
  startedBy: { userId: 'admin-1', name: 'Avery Admin', email: 'avery@example.test', role: 'admin' },
  patientsDone: 200,
  patientsTotal: 450,
  batchesDone: 2,
  resources: 5120,
  filesCopied: 14,
  bytes: 1_048_576,
  error: 'The export stopped unexpectedly.',
  attempt: 1,
  resourceCounts: { Patient: 200, Encounter: 4920 },
  request: 'https://api.example.test/v1/practices/fhir-exports',
  executionArn: 'arn:aws:states:us-east-1:000000000000:execution:fhir-export:1',
  nextBatch: 2,
  cursor: { practiceId: 'prc_1', sk: 'PATIENT#p200', gsi1pk: 'PATIENTS#active', gsi1sk: 'lopez#p200' },
  listingDone: false,
};

describe('a stored practice export', () => {
  it('written before its files were kept reads with none, and resumes from its batch and listing cursor', () => {
    const record = bulkExportFromItem(first);
    expect(record).toMatchObject({ exportId: '0b6f3c1e-0001', status: 'failed', nextBatch: 2, cursor: first.cursor, parts: {}, attempt: 1 });
    expect(record).not.toHaveProperty('apiBase');
    expect(record).not.toHaveProperty('entityType');
  });

  it('keeps its files by batch, merged sizes and missing files', () => {
    const record = bulkExportFromItem({
      ...first,
      status: 'completed',
      finishedAt: '2026-11-28T11:00:00.000Z',
      apiBase: 'https://api.example.test',
      parts: {
        Patient: [
          [0, 1200],
          [1, 1300],
        ],
      },
      sharedBytes: { Practitioner: 800, Location: 300 },
      filesMissing: 1,
    });
    expect(record).toMatchObject({
      parts: {
        Patient: [
          [0, 1200],
          [1, 1300],
        ],
      },
      sharedBytes: { Practitioner: 800, Location: 300 },
      filesMissing: 1,
      apiBase: 'https://api.example.test',
    });
  });

  it('that does not fit says which export and which field', () => {
    expect(() => bulkExportFromItem({ ...first, status: 'paused' })).toThrow(
      'Stored FHIR bulk export item FHIRBULK#0b6f3c1e-0001 does not fit its schema: status',
    );
  });
});
