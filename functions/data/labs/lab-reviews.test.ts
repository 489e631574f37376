import { describe, expect, it } from 'vitest';
import { reviewFromItem } from './lab-reviews.js';

const stored = {
  practiceId: 'prac',
  sk: 'LABREVIEW#lab-1',
  entityType: 'LAB_REVIEW',
  gsi1pk: 'LABREVIEWS#dr-1#PENDING',
  gsi1sk: '0#2026-12-01T10:00:00.000Z#lab-1',
  noteId: 'lab-1',
  patientId: 'pat-1',
  patientName: 'Jordan Lee',
  orderingProviderId: 'dr-1',
  orderingProviderName: 'Dr. Rivera',
  tests: ['Basic metabolic panel'],
  severity: 'critical',
  flags: [{ code: '2823-3', text: 'Potassium', value: '6.8 mmol/L', flag: 'high', critical: true }],
  status: 'PENDING',
  waitingSince: '2026-12-01T10:00:00.000Z',
  receivedAt: '2026-12-01T10:00:00.000Z',
  version: 1,
};

describe('a stored result to review', () => {
  it('reads as the review: its fields, none of its keys', () => {
    const { practiceId: _p, sk: _sk, entityType: _t, gsi1pk: _g, gsi1sk: _gs, ...review } = stored;
    expect(reviewFromItem(stored)).toEqual(review);
    expect(review).toMatchObject({ noteId: 'lab-1', patientName: 'Jordan Lee', severity: 'critical', status: 'PENDING' });
  });

  it('one that does not fit is refused, naming its key and the fields, never the patient', () => {
    expect(() => reviewFromItem({ ...stored, severity: 'urgent', tests: undefined })).toThrow(
      /^Stored lab review item LABREVIEW#lab-1 does not fit its schema: tests, severity$/,
    );
  });
});
