import { describe, expect, it } from 'vitest';
import { callFromItem } from './call-repository.js';

const keys = { practiceId: 'prc_1', sk: 'CALL#c1', entityType: 'CALL', gsi1pk: 'CALLS#prc_1', gsi1sk: '2026-01-02T10:00:00.000Z#c1' };

describe('a stored call', () => {
  it('written before the vendor status, the numbers, the caller and the outcome were kept, reads with them empty', () => {
    const call = callFromItem({
      ...keys,
      ident: 'c1',
      direction: 'INBOUND',
      status: 'UNREAD',
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-02T10:00:00.000Z',
    });
    expect(call).toEqual({
      ident: 'c1',
      callSid: null,
      direction: 'INBOUND',
      status: 'UNREAD',
      callStatus: 'queued',
      caller: '',
      recipient: '',
      callerName: null,
      recipientName: null,
      patientId: null,
      patientName: null,
      assigned: null,
      placedBy: null,
      voicemailKey: null,
      voicemailSeconds: null,
      durationSeconds: null,
      noteId: null,
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-02T10:00:00.000Z',
    });
  });

  it('keeps what it holds, and its numbers are named on read, never from the item', () => {
    const call = callFromItem({
      ...keys,
      gsi2pk: 'CALLPATIENT#prc_1#p1',
      gsi2sk: '2026-01-02T10:00:00.000Z#c1',
      ident: 'c1',
      callSid: 'CA1',
      direction: 'INBOUND',
      status: 'READ',
      callStatus: 'completed',
      caller: '+15125550100',
      recipient: '+15125550199',
      callerName: 'Old name',
      patientId: 'p1',
      missed: true,
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-02T10:05:00.000Z',
    });
    expect(call).toMatchObject({
      callSid: 'CA1',
      status: 'READ',
      callStatus: 'completed',
      caller: '+15125550100',
      patientId: 'p1',
      missed: true,
      callerName: null,
    });
    expect(call).not.toHaveProperty('gsi2pk');
  });

  it('that does not fit says which call and which field', () => {
    expect(() => callFromItem({ ...keys, ident: 'c1', direction: 'SIDEWAYS', status: 'UNREAD', createdAt: 'x', updatedAt: 'x' })).toThrow(
      'Stored call item CALL#c1 does not fit its schema: direction',
    );
  });
});
