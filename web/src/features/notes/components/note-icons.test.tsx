import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NOTE_STATUS_TONE } from '../../../../../shared/notes/note-constants.js';
import { NoteTypeIcon } from './note-icons.js';

const icon = (type: Parameters<typeof NoteTypeIcon>[0]['type']) => renderToStaticMarkup(<NoteTypeIcon type={type} />);

describe('note type icons', () => {
  it('gives the notes outside systems write icons of their own, apart from the in-house prescription and a plain note', () => {
    const inHouse = icon('RX');
    const plain = icon('NOTE');
    for (const type of ['RX_VERADIGM', 'ECONSULT_THEA', 'PARTNER', 'SALES'] as const) {
      expect(icon(type), type).not.toBe(inHouse);
      expect(icon(type), type).not.toBe(plain);
    }
    expect(icon('ECONSULT_THEA')).not.toBe(icon('RX_VERADIGM'));
  });

  it('colours statuses as spec shell §4 says', () => {
    expect(NOTE_STATUS_TONE).toEqual({
      ADDENDED: 'success',
      SIGNED: 'success',
      DELIVERED: 'success',
      FULFILLED: 'success',
      DELETED: 'danger',
      HIDDEN: 'danger',
      FAILED: 'danger',
      DRAFT: 'info',
      TEMPLATE: 'dark',
      WRITTEN: 'warning',
      SENT: 'warning',
    });
  });
});
