import { describe, expect, it } from 'vitest';
import { catalogTexts } from './catalog-card.js';

describe('calendar settings list texts', () => {
  it('reads for appointment types as the settings screen says them', () => {
    expect(catalogTexts({ one: 'appointment type', many: 'appointment types' })).toEqual({
      title: 'Appointment types',
      add: 'Add appointment type',
      formLabel: 'Appointment type',
      empty: 'No appointment types yet.',
      saved: 'Appointment type saved',
      removed: 'Appointment type removed',
      removeTitle: 'Remove this appointment type?',
    });
  });

  it('reads for booking locations with their own nouns', () => {
    const texts = catalogTexts({ one: 'booking location', many: 'booking locations' });
    expect(texts.title).toBe('Booking locations');
    expect(texts.add).toBe('Add booking location');
    expect(texts.empty).toBe('No booking locations yet.');
    expect(texts.removeTitle).toBe('Remove this booking location?');
  });
});
