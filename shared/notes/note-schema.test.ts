import { describe, expect, it } from 'vitest';
import { NotesPageQuery } from './note-schema.js';

describe('notes page query', () => {
  it('pages 50 by default and parses comma lists', () => {
    const q = NotesPageQuery.parse({ patientId: 'p', noteTypes: 'NOTE,VITALS', statuses: 'DRAFT' });
    expect(q).toMatchObject({ limit: 50, offset: 0, noteTypes: ['NOTE', 'VITALS'], statuses: ['DRAFT'] });
    expect(NotesPageQuery.safeParse({ patientId: 'p', noteTypes: 'BOGUS' }).success).toBe(false);
  });
});
