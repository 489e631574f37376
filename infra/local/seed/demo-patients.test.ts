import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PatientFullInput } from '../../../shared/patients/patient-schema.js';
import { getPatient } from '../../../functions/data/patients/patient-repository.js';
import { listPatients } from '../../../functions/patients/list-patients.js';
import { startTestTable, TEST_PRACTICE } from '../../../test/support/test-table.js';
import { demoPatientInputs, seedDemoPatients } from './demo-patients.js';

const auth = { practiceId: TEST_PRACTICE, userId: 'seed-test', email: '', name: '', role: 'admin' as const, groups: ['admin'] };

describe('demo patients', () => {
  let table: { stop(): Promise<void> };
  beforeAll(async () => {
    table = await startTestTable();
  });
  afterAll(async () => table?.stop());

  it('are about 40 and each passes full validation', () => {
    const inputs = demoPatientInputs();
    expect(inputs.length).toBe(40);
    for (const { input } of inputs) expect(PatientFullInput.safeParse(input).error?.issues ?? []).toEqual([]);
  });

  it('include a family sharing one phone number', () => {
    const numbers = demoPatientInputs().flatMap(({ input }) => (input.phones ?? []).map((p) => p.number));
    for (const n of numbers) expect(n).toMatch(/^\+1\d{10}$/);
    const counts = new Map<string, number>();
    for (const n of numbers) counts.set(n, (counts.get(n) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(3);
  });

  it('seed once, idempotently, with three archived', async () => {
    expect(await seedDemoPatients(TEST_PRACTICE)).toBe(40);
    expect(await seedDemoPatients(TEST_PRACTICE)).toBe(0);
    const active = await listPatients(auth, { limit: 100, offset: 0, status: 'active' });
    const archived = await listPatients(auth, { limit: 100, offset: 0, status: 'DELETED' });
    expect(active.total).toBe(37);
    expect(archived.items.map((p) => p.id).sort()).toEqual(['pat-0038', 'pat-0039', 'pat-0040']);
    expect((await getPatient(TEST_PRACTICE, 'pat-0001'))?.firstName).toBe('Maria');
  });
});
