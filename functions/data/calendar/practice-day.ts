import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { zonedParts } from '../../../shared/calendar/recurrence.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';

/*
 * The practice's calendar day. "Today" on a prescription (its dates, its chart medication's start)
 * is the day at the practice, not in UTC: a prescription signed at 8 pm in Chicago is dated that
 * day. The zone is the practice calendar setting (calendar-repository.ts keeps it under the same
 * key; read here alone so prescriptions do not load the calendar's schemas), else the calendar's
 * default.
 */
const PRACTICE_CALENDAR_SETTINGS_KEY = 'CALENDAR_SETTINGS#PRACTICE';
const DEFAULT_TIME_ZONE = 'America/Chicago';

export async function practiceTimeZone(practiceId: string): Promise<string> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: { practiceId, sk: PRACTICE_CALENDAR_SETTINGS_KEY },
      ProjectionExpression: '#tz',
      ExpressionAttributeNames: { '#tz': 'timeZone' },
    }),
  );
  return typeof out.Item?.timeZone === 'string' && out.Item.timeZone ? out.Item.timeZone : DEFAULT_TIME_ZONE;
}

/** yyyy-mm-dd of `instant` in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** mm/dd/yyyy of a yyyy-mm-dd day, the spec's prescription date form. */
export const mmDdYyyy = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
