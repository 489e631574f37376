import { describe, expect, it } from 'vitest';
import { displayPhone, groupByDay, smsDayLabel, smsTimeLabel } from './sms-format.js';

describe('SMS conversation formats', () => {
  it('labels days M/D/YYYY and times h:mm A in local time', () => {
    const morning = new Date(2026, 0, 5, 9, 7).toISOString();
    const evening = new Date(2026, 10, 25, 21, 30).toISOString();
    const midnight = new Date(2026, 10, 25, 0, 5).toISOString();
    expect(smsDayLabel(morning)).toBe('1/5/2026');
    expect(smsTimeLabel(morning)).toBe('9:07 AM');
    expect(smsTimeLabel(evening)).toBe('9:30 PM');
    expect(smsTimeLabel(midnight)).toBe('12:05 AM');
  });

  it('groups texts by day, oldest first, with a text being sent last', () => {
    const at = (d: number, h: number) => new Date(2026, 10, d, h).toISOString();
    const days = groupByDay([
      { id: 'b', direction: 'inbound', text: 'b', timestamp: at(25, 10) },
      { id: 'p', direction: 'outbound', text: 'p', timestamp: at(20, 1), pending: true },
      { id: 'a', direction: 'outbound', text: 'a', timestamp: at(24, 8) },
      { id: 'c', direction: 'outbound', text: 'c', timestamp: at(25, 11) },
    ]);
    expect(days.map((d) => d.label)).toEqual(['11/24/2026', '11/25/2026', '11/20/2026']);
    expect(days[1].messages.map((m) => m.id)).toEqual(['b', 'c']);
  });

  it('shows phone numbers with the default country code', () => {
    expect(displayPhone('+15415550100')).toBe('+1 (541) 555-0100');
    expect(displayPhone('5415550100')).toBe('+1 (541) 555-0100');
    expect(displayPhone('short')).toBe('short');
  });
});
