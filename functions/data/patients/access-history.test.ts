import { describe, expect, it } from 'vitest';
import { toEntry } from './access-history.js';

describe('access history entries', () => {
  it('shows who, when, what and from where of an audit entry', () => {
    const entry = toEntry({
      at: '2026-11-24T08:00:00.000Z',
      actorUserId: 'u1',
      actorEmail: 'provider@demo.tidewell.local',
      actorName: 'Daniel Okafor',
      actorRole: 'provider',
      action: 'read',
      entity: 'patient',
      entityId: 'pat-0001',
      routeKey: 'GET /v1/patients/{patientId}',
      sourceIp: '10.0.0.7',
      userAgent: 'Mozilla/5.0',
      gsi1pk: 'AUDIT#PATIENT#pat-0001',
    });
    expect(entry).toEqual({
      at: '2026-11-24T08:00:00.000Z',
      actor: { userId: 'u1', email: 'provider@demo.tidewell.local', name: 'Daniel Okafor', role: 'provider' },
      action: 'read',
      entity: 'patient',
      entityId: 'pat-0001',
      routeKey: 'GET /v1/patients/{patientId}',
      sourceIp: '10.0.0.7',
      userAgent: 'Mozilla/5.0',
      outcome: 'allowed',
    });
  });

  it('marks a refused attempt that names the patient, with its reason', () => {
    // The shape the auth middleware's refusal row has (writeRefusalAudit).
    const entry = toEntry({
      at: '2026-11-24T08:00:00.000Z',
      actorUserId: 'u2',
      actorEmail: 'noaccess@demo.tidewell.local',
      action: 'refused',
      entity: 'access',
      route: 'GET /v1/patients/{patientId}',
      reason: 'no_access',
      status: 403,
    });
    expect(entry).toMatchObject({ outcome: 'refused', action: 'refused', reason: 'no_access', routeKey: 'GET /v1/patients/{patientId}' });
    expect(toEntry({ at: '2026-11-24T08:00:00.000Z', actorUserId: 'u1', actorEmail: 'a@b', action: 'read', entity: 'patient' }).outcome).toBe('allowed');
  });
});
