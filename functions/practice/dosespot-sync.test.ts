import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoseSpotLink } from './dosespot-patient-link.js';

process.env.TIDEWELL_LOG = 'silent';

const config = vi.fn();
const links = vi.fn<() => Promise<DoseSpotLink[]>>();
const marked: string[] = [];
const listed: string[] = [];
const refused = new Set<string>();
/** The background task record as the sync writes it: each status it took, in order, and what it said. */
const taskEvents: { status: string; trigger?: string; result?: unknown; reason?: string }[] = [];
const statusNow = () => taskEvents.at(-1)?.status;

vi.mock('./dosespot-sso.js', () => ({
  doseSpotConfig: () => config(),
  doseSpotApiAuth: (c: { clinicId: string; clinicKey: string; subscriptionKey: string }, doseSpotUserId: string) => ({ ...c, doseSpotUserId }),
  doseSpotUserOf: vi.fn(),
}));
vi.mock('./dosespot-patient-link.js', () => ({
  listDoseSpotLinks: () => links(),
  markDoseSpotSynced: async (_practiceId: string, patientId: string) => void marked.push(patientId),
  doseSpotPatientIdFor: vi.fn(),
}));
vi.mock('../lib/adapters/dosespot.js', async (original) => ({
  ...(await original<typeof import('../lib/adapters/dosespot.js')>()),
  listPrescriptions: async (_base: string, auth: { doseSpotUserId: string }, doseSpotPatientId: string) => {
    listed.push(`${auth.doseSpotUserId}:${doseSpotPatientId}@${statusNow()}`);
    if (refused.has(doseSpotPatientId)) throw new Error('DoseSpot refused');
    return [];
  },
}));
vi.mock('../data/patients/patient-repository.js', () => ({ getPatient: async (_p: string, id: string) => ({ id }), PATIENT_NOT_FOUND: 'Patient not found' }));
vi.mock('../lib/audit/audit-repository.js', () => ({ writeAudit: async () => {} }));
vi.mock('../data/background-tasks/background-tasks.js', () => ({
  startBackgroundTask: async (_practiceId: string, start: { trigger: string }) => {
    taskEvents.push({ status: 'PROCESSING', trigger: start.trigger });
    return {
      task: { taskId: 'task-1' },
      complete: async (result: unknown) => void taskEvents.push({ status: 'COMPLETED', result }),
      fail: async (reason: string) => void taskEvents.push({ status: 'FAILED', reason }),
    };
  },
}));

const { syncLinkedPatientsRx } = await import('./dosespot-sync.js');

const CLINIC = { clinicId: '1', clinicKey: 'k', subscriptionKey: 's', clinicUserId: '900', users: {}, baseUrl: 'https://dosespot.test/' };
const link = (n: number, lastSyncedAt?: string): DoseSpotLink => ({
  patientId: `pat-${n}`,
  doseSpotPatientId: `${n}`,
  ...(lastSyncedAt ? { lastSyncedAt } : {}),
});

beforeEach(() => {
  marked.length = 0;
  listed.length = 0;
  refused.clear();
  taskEvents.length = 0;
  config.mockResolvedValue(CLINIC);
});

describe('the scheduled DoseSpot sync', () => {
  it('does nothing for a clinic without DoseSpot, its subscription key or its clinic-level user', async () => {
    links.mockResolvedValue([link(1)]);
    config.mockResolvedValue(null);
    expect(await syncLinkedPatientsRx('prc')).toMatchObject({ skipped: 'not-configured', patients: 0 });
    config.mockResolvedValue({ ...CLINIC, subscriptionKey: undefined });
    expect(await syncLinkedPatientsRx('prc')).toMatchObject({ skipped: 'not-configured' });
    config.mockResolvedValue({ ...CLINIC, clinicUserId: undefined });
    expect(await syncLinkedPatientsRx('prc')).toMatchObject({ skipped: 'no-clinic-user' });
    expect(listed).toEqual([]);
    // Without DoseSpot there is no run to record; set up without its clinic user, the run fails saying so.
    expect(taskEvents).toEqual([
      { status: 'PROCESSING', trigger: 'scheduled' },
      { status: 'FAILED', reason: 'The DoseSpot settings have no clinic-level user (clinicUserId), so the hourly sync cannot sign in to DoseSpot.' },
    ]);
  });

  it('reads every linked patient as the clinic-level user, never-synced and least recently synced first, and stamps each', async () => {
    links.mockResolvedValue([link(1, '2026-01-03T00:00:00Z'), link(2), link(3, '2026-01-01T00:00:00Z')]);
    expect(await syncLinkedPatientsRx('prc')).toEqual({ patients: 3, created: 0, failed: 0, deferred: 0, taskId: 'task-1' });
    // Its record says PROCESSING while it reads DoseSpot, then COMPLETED with what it synced.
    expect(listed).toEqual(['900:2@PROCESSING', '900:3@PROCESSING', '900:1@PROCESSING']);
    expect(marked).toEqual(['pat-2', 'pat-3', 'pat-1']);
    expect(taskEvents.map((e) => e.status)).toEqual(['PROCESSING', 'COMPLETED']);
    expect(taskEvents[1]!.result).toEqual({ patients: 3, created: 0, failed: 0, deferred: 0, noteIds: [] });
  });

  it('goes on past a patient DoseSpot refuses, leaving it first in line for the next run', async () => {
    links.mockResolvedValue([link(1), link(2), link(3)]);
    refused.add('2');
    expect(await syncLinkedPatientsRx('prc')).toEqual({ patients: 3, created: 0, failed: 1, deferred: 0, taskId: 'task-1' });
    expect(marked).toEqual(['pat-1', 'pat-3']);
    expect(taskEvents.at(-1)).toEqual({ status: 'COMPLETED', result: { patients: 3, created: 0, failed: 1, deferred: 0, noteIds: [] } });
  });

  it('throws when every patient failed, so Scheduler retries and finally dead-letters the run', async () => {
    links.mockResolvedValue([link(1), link(2)]);
    refused.add('1').add('2');
    await expect(syncLinkedPatientsRx('prc')).rejects.toThrow('There was an error logging into DoseSpot. Please try again.');
    expect(taskEvents.map((e) => e.status)).toEqual(['PROCESSING', 'FAILED']);
    expect(taskEvents[1]!.reason).toBe('DoseSpot refused every patient of this run (2).');
  });

  it('stops starting patients after its time budget and leaves the rest for the next run', async () => {
    links.mockResolvedValue([link(1), link(2), link(3), link(4)]);
    // The clock moves 7.5 s at every look (three per patient): the third patient would start 52.5 s in, past the 40 s budget.
    let t = Date.parse('2026-02-01T00:00:00Z');
    const clock = () => new Date((t += 7_500));
    expect(await syncLinkedPatientsRx('prc', clock)).toEqual({ patients: 2, created: 0, failed: 0, deferred: 2, taskId: 'task-1' });
    expect(marked).toEqual(['pat-1', 'pat-2']);
    expect(taskEvents.at(-1)).toMatchObject({ status: 'COMPLETED', result: { patients: 2, deferred: 2 } });
  });
});
