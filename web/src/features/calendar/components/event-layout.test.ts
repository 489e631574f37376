import { describe, expect, it } from 'vitest';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { layout } from './event-layout.js';

const at = (id: string, start: string, end: string) =>
  ({ appointmentId: id, start: `2026-03-02T${start}:00.000Z`, end: `2026-03-02T${end}:00.000Z` }) as AppointmentOccurrence;

describe('side-by-side columns of one day', () => {
  it('gives overlapping appointments their own column and a lone one the whole width', () => {
    const a = at('a', '09:00', '10:00');
    const b = at('b', '09:30', '10:30');
    const c = at('c', '10:00', '11:00');
    const lone = at('d', '13:00', '14:00');
    const placed = layout([c, lone, b, a]);
    expect(placed.get(a)).toEqual({ column: 0, columns: 2 });
    expect(placed.get(b)).toEqual({ column: 1, columns: 2 });
    // c starts when a ends, so it takes a's column back within the same cluster.
    expect(placed.get(c)).toEqual({ column: 0, columns: 2 });
    expect(placed.get(lone)).toEqual({ column: 0, columns: 1 });
  });
});
