import { describe, expect, it } from 'vitest';
import { socialHistoryDefinition } from './social-history.js';

describe('social history form', () => {
  it('offers the newest answer for editing', () => {
    const values = socialHistoryDefinition.toValues({
      ident: 's1',
      patientId: 'p',
      question: 'Tobacco use',
      answers: [
        { ident: 'a1', answer: 'Never', timestamp: '2023-01-01T00:00:00Z', userId: 'u' },
        { ident: 'a2', answer: 'Former', timestamp: '2024-01-01T00:00:00Z', userId: 'u' },
      ],
      pinned: false,
      startDate: '',
      endDate: '',
      notes: '',
      createdAt: '',
      updatedAt: '',
    });
    expect(values.answer).toBe('Former');
  });
});
