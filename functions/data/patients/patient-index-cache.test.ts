import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearPatientIndexCache, INDEX_SETTLE_MS, patientIndex } from './patient-index-cache.js';
import { archivePatient, createPatient, readPatientIndexVersion } from './patient-repository.js';
import { startTestTable } from '../../../test/support/test-table.js';

const practice = 'prc_cache_test';
const input = (lastName: string) => ({ firstName: 'Cache', lastName, gender: 'other' as const });
const names = (index: Awaited<ReturnType<typeof patientIndex>>) => index.entries.map((e) => e.patient.lastName);

describe('patient index cache', () => {
  let table: { stop(): Promise<void> };
  beforeAll(async () => {
    table = await startTestTable();
    clearPatientIndexCache();
  });
  afterAll(async () => table?.stop());

  it('bumps the version with every write', async () => {
    const before = await readPatientIndexVersion(practice);
    await createPatient(practice, 'c1', input('Beta'));
    const after = await readPatientIndexVersion(practice);
    expect(after.version).toBe(before.version + 1);
    expect(after.changedAt).toBeGreaterThan(0);
  });

  it('uses a load made right after a write only until the write settles, then reloads once', async () => {
    const { changedAt } = await readPatientIndexVersion(practice);
    const early = await patientIndex(practice, 'active', () => changedAt + 10);
    expect(early.settled).toBe(false);
    expect(names(early)).toEqual(['Beta']);
    expect(await patientIndex(practice, 'active', () => changedAt + 20)).toBe(early);
    const later = await patientIndex(practice, 'active', () => changedAt + INDEX_SETTLE_MS + 1);
    expect(later).not.toBe(early);
    expect(later.settled).toBe(true);
    expect(await patientIndex(practice, 'active', () => changedAt + 60_000)).toBe(later);
  });

  it('reloads when another write changes the version, in name order, per status', async () => {
    await createPatient(practice, 'c2', input('Alpha'));
    await createPatient(practice, 'c3', input('Gamma'));
    await archivePatient(practice, 'c1');
    const { changedAt } = await readPatientIndexVersion(practice);
    const settle = () => changedAt + INDEX_SETTLE_MS;
    expect(names(await patientIndex(practice, 'active', settle))).toEqual(['Alpha', 'Gamma']);
    expect(names(await patientIndex(practice, 'DELETED', settle))).toEqual(['Beta']);
  });
});
