import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { CATCH_UP_MAX, clearPatientIndexCache, INDEX_SETTLE_MS, patientIndex } from './patient-index-cache.js';
import {
  archivePatient,
  createPatient,
  patientChangeKey,
  putPatientsBatch,
  readPatientChanges,
  readPatientIndexVersion,
  updatePatient,
} from './patient-repository.js';
import type { Patient } from '../../../shared/patients/patient-record.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { itemsRead, withReadMeter } from '../../lib/table/read-meter.js';
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

  describe('catching up after writes', () => {
    const big = 'prc_cache_catch_up';
    const SEEDED = 3000;
    const at = new Date('2026-01-01T00:00:00Z').toISOString();
    const seeded = (i: number): Patient =>
      ({
        id: `s${String(i).padStart(4, '0')}`,
        firstName: `First${i % 37}`,
        lastName: `Last${String(i % 211).padStart(3, '0')}`,
        gender: 'other',
        membershipStatus: 'active',
        status: 'active',
        createdAt: at,
        updatedAt: at,
      }) as Patient;
    /** An index read well after the last write, and the items that read cost. */
    const settledIndex = async (practiceId: string, status: 'active' | 'DELETED' = 'active') => {
      const { changedAt } = await readPatientIndexVersion(practiceId);
      let read = 0;
      const index = await withReadMeter(async () => {
        const out = await patientIndex(practiceId, status, () => changedAt + INDEX_SETTLE_MS + 1);
        read = itemsRead();
        return out;
      });
      return { index, read };
    };
    const ids = (index: Awaited<ReturnType<typeof patientIndex>>) => index.entries.map((e) => e.patient.id);
    /** What a cold instance would load from the table: the list a patched cache must equal. */
    const fresh = async (practiceId: string, status: 'active' | 'DELETED') => {
      clearPatientIndexCache();
      return ids((await settledIndex(practiceId, status)).index);
    };

    beforeAll(async () => {
      await putPatientsBatch(
        big,
        Array.from({ length: SEEDED }, (_, i) => seeded(i)),
      );
    });

    it('reads only the changed patients, and patches inserts, renames, edits and archives into name order per status', async () => {
      // The table holds one practice's patients; the two of the cases above are listed too.
      const cold = await settledIndex(big);
      const before = cold.index.entries.length;
      expect(before).toBeGreaterThanOrEqual(SEEDED);
      expect(cold.read).toBeGreaterThan(SEEDED);
      await settledIndex(big, 'DELETED');

      await createPatient(big, 'n1', input('Aardvark'));
      await createPatient(big, 'n2', input('Last100'));
      await updatePatient(big, 's0005', { firstName: 'Moved', lastName: 'Zulu', gender: 'other' });
      await updatePatient(big, 's0006', { firstName: 'Renamed', lastName: 'Last006', gender: 'female' });
      await archivePatient(big, 's0007');

      const active = await settledIndex(big);
      const deleted = await settledIndex(big, 'DELETED');
      console.log(
        `${before} patients: a cold load read ${cold.read} items; after five writes the active list read ${active.read}, the archived ${deleted.read}`,
      );
      // One version GetItem, the five change items and the five patients, whatever the practice's size.
      expect(active.read).toBe(11);
      expect(deleted.read).toBe(11);
      expect(active.index.settled).toBe(true);
      expect(active.index.entries).toHaveLength(before + 1);
      expect(active.index.entries[0]!.patient.lastName).toBe('Aardvark');
      expect(active.index.entries.at(-1)!.patient.firstName).toBe('Moved');
      expect(active.index.entries.find((e) => e.patient.id === 's0006')!.patient.firstName).toBe('Renamed');
      expect(ids(deleted.index)).toContain('s0007');
      const patchedActive = ids(active.index);
      const patchedDeleted = ids(deleted.index);
      expect(patchedActive).toEqual(await fresh(big, 'active'));
      expect(patchedDeleted).toEqual(await fresh(big, 'DELETED'));
    });

    it('gives each of concurrent writes its own version and change, so a catch-up misses none', async () => {
      await settledIndex(big);
      const before = await readPatientIndexVersion(big);
      await Promise.all(Array.from({ length: 6 }, (_, i) => createPatient(big, `c-${i}`, input(`Concurrent${i}`))));
      const after = await readPatientIndexVersion(big);
      expect(after.version).toBe(before.version + 6);
      const changes = await readPatientChanges(big, before.version, after.version, 10);
      expect(changes.map((c) => c.patientId).sort()).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4', 'c-5']);
      const { index, read } = await settledIndex(big);
      expect(read).toBe(13);
      expect(ids(index)).toEqual(await fresh(big, 'active'));
    });

    it('reloads in full after a bulk load, a missing (expired) change, or more than a page of changes', async () => {
      await settledIndex(big);
      await putPatientsBatch(big, [seeded(SEEDED)]);
      const afterBulk = await settledIndex(big);
      expect(afterBulk.read).toBeGreaterThan(SEEDED);
      expect(afterBulk.index.entries.some((e) => e.patient.id === seeded(SEEDED).id)).toBe(true);

      await createPatient(big, 'e1', input('Expired'));
      await createPatient(big, 'e2', input('Kept'));
      const { version } = await readPatientIndexVersion(big);
      await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId: big, sk: patientChangeKey(version - 1) } }));
      const afterExpiry = await settledIndex(big);
      expect(afterExpiry.read).toBeGreaterThan(SEEDED);
      expect(ids(afterExpiry.index)).toEqual(expect.arrayContaining(['e1', 'e2']));

      for (let i = 0; i <= CATCH_UP_MAX; i++) await createPatient(big, `m-${i}`, input(`Many${i}`));
      const farBehind = await settledIndex(big);
      expect(farBehind.read).toBeGreaterThan(SEEDED);
      expect(ids(farBehind.index)).toEqual(await fresh(big, 'active'));
    }, 60_000);
  });
});
