import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from '../../../shared/calendar/calendar-schema.js';
import { PRACTICE_CALENDAR_SETTINGS_KEY } from './calendar-repository.js';
import { dayIn, mmDdYyyy } from './practice-day.js';
import { readFileSync } from 'node:fs';

describe("the practice's day", () => {
  it('is the calendar day in the practice time zone, not in UTC', () => {
    const evening = new Date('2026-11-28T02:30:00Z');
    expect(dayIn(evening, 'America/Chicago')).toBe('2026-11-27');
    expect(dayIn(evening, 'Europe/Berlin')).toBe('2026-11-28');
    expect(mmDdYyyy('2026-11-27')).toBe('11/27/2026');
  });

  it('reads the calendar setting the calendar keeps, with its default', () => {
    const source = readFileSync(new URL('./practice-day.ts', import.meta.url), 'utf8');
    expect(source).toContain(`'${PRACTICE_CALENDAR_SETTINGS_KEY}'`);
    expect(source).toContain(`'${DEFAULT_TIME_ZONE}'`);
  });
});
