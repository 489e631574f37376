import { describe, expect, it } from 'vitest';
import { faxFromItem, faxItem } from './fax-repository.js';
import type { Fax } from '../../../shared/faxes/fax-schema.js';

const at = '2026-01-02T10:00:00.000Z';

describe('a stored fax', () => {
  it('written before its numbers, file, read mark and attempts were kept, reads with them empty, unread and sent once', () => {
    const fax = faxFromItem({
      practiceId: 'prc_1',
      sk: 'FAX#f1',
      entityType: 'FAX',
      ident: 'f1',
      direction: 'INBOUND',
      status: 'COMPLETED',
      createdAt: at,
      updatedAt: at,
    });
    expect(fax).toEqual({
      ident: 'f1',
      faxId: null,
      direction: 'INBOUND',
      status: 'COMPLETED',
      sender: '',
      recipient: '',
      recipientName: null,
      patientId: null,
      patientName: null,
      sourceNoteId: null,
      faxNoteId: null,
      fileKey: '',
      pages: null,
      coverText: null,
      errorMessage: null,
      read: false,
      attempts: 1,
      createdAt: at,
      updatedAt: at,
    });
  });

  it('reads back as written, its list and fax notes keys left on the item', () => {
    const fax: Fax = {
      ident: 'f2',
      faxId: 'sinch-1',
      direction: 'OUTBOUND',
      status: 'QUEUED',
      sender: '+15125550100',
      recipient: '+15035550199',
      recipientName: 'Dr. Lee',
      patientId: 'p1',
      patientName: 'Maria Lopez',
      sourceNoteId: 'n1',
      faxNoteId: 'n2',
      fileKey: 'faxes/f2.pdf',
      pages: 2,
      coverText: 'Records attached.',
      errorMessage: null,
      read: true,
      attempts: 2,
      createdAt: at,
      updatedAt: at,
    };
    expect(faxFromItem(faxItem('prc_1', fax))).toEqual(fax);
  });
});
