/**
 * The provider-wide passes of the Google push, run in the schedule target a few seconds after the
 * call that asked for them so linking or unlinking answers at once however many appointments the
 * provider has. Linking (or choosing another calendar) writes every appointment still ahead;
 * unlinking takes out every event Tidewell wrote, then revokes the token at Google.
 */
import { GoogleCalendarClient, GoogleError, parseGoogleConfig } from '../lib/adapters/google-calendar.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { scheduleAdapterFromEnv, scheduleName } from '../lib/adapters/scheduler.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { log } from '../lib/log.js';
import { listAppointmentsInRange } from '../data/calendar/calendar-repository.js';
import * as googleRepo from '../data/google/google-repository.js';
import { pushAppointmentsToGoogle } from '../core/calendar/google-push.js';
import { getUser } from '../data/users/user-repository.js';

export const GOOGLE_RESYNC_JOB_KIND = 'google-calendar-resync';
export const GOOGLE_UNLINK_JOB_KIND = 'google-calendar-unlink';
const DELAY_MS = 5000;
/** As far ahead as a yearly series' next occurrence: what a provider's calendar is expected to show. */
const AHEAD_DAYS = 400;
const DAY_MS = 86_400_000;

async function scheduleJob(kind: string, payload: Record<string, string>, now: Date): Promise<void> {
  await scheduleAdapterFromEnv().createAt({
    name: scheduleName(kind, `${payload.userId}.${now.getTime()}`),
    at: new Date(now.getTime() + DELAY_MS),
    payload: { kind, ...payload },
  });
}

export const scheduleGoogleResync = (practiceId: string, userId: string, now = new Date()) => scheduleJob(GOOGLE_RESYNC_JOB_KIND, { practiceId, userId }, now);
export const scheduleGoogleUnlinkCleanup = (practiceId: string, userId: string, unlinkedAt: string, writtenBefore: string, now = new Date()) =>
  scheduleJob(GOOGLE_UNLINK_JOB_KIND, { practiceId, userId, unlinkedAt, writtenBefore }, now);

function ownPractice(payload: Record<string, unknown>): { practiceId: string; userId: string } | null {
  const practiceId = String(payload.practiceId ?? '');
  const userId = String(payload.userId ?? '');
  if (!practiceId || !userId || (process.env.PRACTICE_ID && process.env.PRACTICE_ID !== practiceId)) {
    log.error('google calendar job with a foreign or missing practice or user', {});
    return null;
  }
  return { practiceId, userId };
}

/**
 * The 'google-calendar-resync' job: the provider's appointments still ahead (and those already in
 * Google, which move with a change of calendar) brought in line, as the provider themself.
 */
export async function resyncGoogleCalendar(payload: Record<string, unknown>, now = new Date()): Promise<number> {
  const job = ownPractice(payload);
  if (!job) return 0;
  const user = await getUser(job.practiceId, job.userId);
  if (!user || user.userStatus === 'deleted') return 0;
  const auth: AuthContext = {
    practiceId: job.practiceId,
    userId: user.userId,
    email: user.emailAddress ?? '',
    name: user.name,
    role: user.permissionGroup === 'admin' ? 'admin' : user.permissionGroup === 'provider' ? 'provider' : 'employee',
    groups: [],
  };
  const [ahead, written] = await Promise.all([
    listAppointmentsInRange(job.practiceId, now.toISOString(), new Date(now.getTime() + AHEAD_DAYS * DAY_MS).toISOString(), job.userId),
    googleRepo.listGoogleEventsOf(job.practiceId, job.userId),
  ]);
  const ids = [...new Set([...ahead.map((a) => a.appointmentId), ...written.map((e) => e.appointmentId)])];
  await pushAppointmentsToGoogle(auth, ids);
  // Nothing to write is still a pass: the card says when Google was last brought up to date.
  if (!ids.length) await googleRepo.updateGoogleLink(job.practiceId, job.userId, { lastSyncAt: now.toISOString(), lastSyncError: null });
  log.info('google calendar resynced', { appointments: ids.length });
  return ids.length;
}

/**
 * The 'google-calendar-unlink' job: every event written under the old link, up to the moment the
 * link was gone, is deleted at Google (a pass still writing then takes out what it writes after),
 * then the token is revoked. An event Google no longer has counts as deleted. If Google cannot be
 * reached the job fails and the scheduler retries it.
 */
export async function cleanUpGoogleUnlink(payload: Record<string, unknown>): Promise<number> {
  const job = ownPractice(payload);
  if (!job) return 0;
  const unlinkedAt = String(payload.unlinkedAt ?? '');
  const parked = await googleRepo.getParkedGoogleToken(job.practiceId, job.userId, unlinkedAt);
  if (!parked) return 0;
  const config = parseGoogleConfig(await partnerSecretsFromEnv().secretOf('google'));
  // Up to the moment the link was gone (a job scheduled before that was recorded: the moment of unlinking).
  const writtenBefore = String(payload.writtenBefore ?? unlinkedAt);
  const events = (await googleRepo.listGoogleEventsOf(job.practiceId, job.userId)).filter((e) => e.syncedAt <= writtenBefore);
  let removed = 0;
  if (config) {
    const google = new GoogleCalendarClient(config);
    let token: string | null = null;
    try {
      token = (await google.refresh(parked.refreshToken)).accessToken;
    } catch (error) {
      // Access already removed in the Google account: nothing can be deleted there any more.
      if (!(error instanceof GoogleError && (error.code === 'invalid_grant' || error.status === 401))) throw error;
    }
    for (const event of events) {
      if (token) {
        try {
          await google.deleteEvent(token, event.calendarId, event.eventId);
        } catch (error) {
          if (!(error instanceof GoogleError && (error.status === 404 || error.status === 410))) throw error;
        }
      }
      await googleRepo.deleteGoogleEventIf(job.practiceId, event);
      removed++;
    }
    if (token) {
      try {
        await google.revoke(parked.refreshToken);
      } catch {
        // The link is gone here either way; the user can also remove access in their Google account.
      }
    }
  }
  await googleRepo.deleteParkedGoogleToken(job.practiceId, job.userId, unlinkedAt);
  log.info('google calendar unlinked', { events: removed });
  return removed;
}
