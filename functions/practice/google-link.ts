/**
 * A user's Google Calendar link (spec shell §7.9 `.../link/google`): the consent url, the linked
 * user's calendars, the credentials Google's redirect carried, and unlinking. The refresh token
 * stays in the table; the browser only ever sees whether the link is on and the calendar names.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CALENDAR_MESSAGES as M, type GoogleCredentialsInput } from '../../shared/calendar/calendar-schema.js';
import type { GoogleLinkStatus } from '../../shared/calendar/calendar-responses.js';
import { canListCalendars, canWriteEvents, GoogleCalendarClient, GoogleError, parseGoogleConfig } from '../lib/adapters/google-calendar.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { log } from '../lib/log.js';
import { ConflictError, DependencyError, ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';
import * as repo from '../data/calendar/calendar-repository.js';
import * as googleRepo from '../data/google/google-repository.js';
import { scheduleGoogleResync, scheduleGoogleUnlinkCleanup } from './google-resync.js';

export const GOOGLE_PARTNER_ID = 'google';
/** Google's own authorization codes last about ten minutes; a consent left open longer starts again. */
const STATE_TTL_MS = 15 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function client(): Promise<GoogleCalendarClient> {
  const config = parseGoogleConfig(await partnerSecretsFromEnv().secretOf(GOOGLE_PARTNER_ID));
  if (!config) throw new ConflictError(M.googleNotConfigured);
  return new GoogleCalendarClient(config);
}

/** A Google account is personal: nobody else links it, and nobody else reads its calendars. */
function ownOnly(auth: AuthContext, userId: string) {
  if (userId !== auth.userId) throw new ForbiddenError(M.googleOwnOnly);
}

const unavailable = () => new DependencyError(502, M.googleUnavailable, 'GOOGLE_UNAVAILABLE');

export async function googleConsentUrl(auth: AuthContext, userId: string): Promise<{ url: string }> {
  ownOnly(auth, userId);
  const google = await client();
  // The state is bound to this user: only its hash is kept, and only their credentials call can claim it.
  const state = randomBytes(24).toString('base64url');
  const existing = await repo.getGoogleLink(auth.practiceId, userId);
  await repo.putGoogleLink(auth.practiceId, {
    userId,
    pendingStateHash: sha256(state),
    pendingSince: new Date().toISOString(),
    refreshToken: existing?.refreshToken ?? null,
    scopes: existing?.scopes ?? [],
    linkedAt: existing?.linkedAt ?? null,
    calendarId: existing?.calendarId ?? 'primary',
    lastSyncAt: existing?.lastSyncAt ?? null,
    lastSyncError: existing?.lastSyncError ?? null,
  });
  return { url: google.consentUrl(state) };
}

export async function saveGoogleCredentials(auth: AuthContext, userId: string, body: GoogleCredentialsInput): Promise<GoogleLinkStatus> {
  ownOnly(auth, userId);
  const code = body.code?.trim() ?? '';
  const scopes = (Array.isArray(body.scopes) ? body.scopes : (body.scopes ?? '').split(' ')).map((s) => s.trim()).filter(Boolean);
  if (!code || scopes.length === 0) throw new ValidationError(M.missingOauth);
  const pending = await repo.getGoogleLink(auth.practiceId, userId);
  const stateHash = sha256(body.state ?? '');
  const fresh = pending?.pendingSince && Date.now() - Date.parse(pending.pendingSince) < STATE_TTL_MS;
  if (!body.state || !pending || pending.pendingStateHash !== stateHash || !fresh) throw new ValidationError(M.googleStateMismatch);
  if (!(await repo.claimGoogleState(auth.practiceId, userId, stateHash))) throw new ValidationError(M.googleStateMismatch);
  // Google's consent lets the user untick scopes: both listing and writing events are needed.
  if (!canListCalendars(scopes) || !canWriteEvents(scopes)) throw new ValidationError(M.googleScopeMissing);
  const google = await client();
  let tokens;
  try {
    tokens = await google.exchangeCode(code);
  } catch (error) {
    if (error instanceof GoogleError && error.code === 'invalid_grant') throw new ValidationError(M.googleCodeRefused);
    throw unavailable();
  }
  // With prompt=consent Google sends a refresh token; without one the link could not outlive the hour.
  const refreshToken = tokens.refreshToken ?? pending.refreshToken;
  if (!refreshToken) throw new ValidationError(M.googleCodeRefused);
  const granted = tokens.scopes.length ? tokens.scopes : scopes;
  if (!canListCalendars(granted) || !canWriteEvents(granted)) throw new ValidationError(M.googleScopeMissing);
  const linkedAt = new Date().toISOString();
  const calendarId = pending.calendarId ?? 'primary';
  await repo.putGoogleLink(auth.practiceId, {
    userId,
    pendingStateHash: null,
    pendingSince: null,
    refreshToken,
    scopes: granted,
    linkedAt,
    calendarId,
    lastSyncAt: null,
    lastSyncError: null,
  });
  await writeAudit(auth, { action: 'create', entity: 'GOOGLE_CALENDAR_LINK', entityId: userId });
  await resyncSoon(auth.practiceId, userId);
  const calendars = await listWith(google, auth, userId, refreshToken);
  return { linked: true, linkedAt, calendars, calendarId: chosenOf(calendarId, calendars), writesEvents: true, lastSyncAt: null, lastSyncError: null };
}

const NOT_LINKED: GoogleLinkStatus = {
  linked: false,
  linkedAt: null,
  calendars: [],
  calendarId: null,
  writesEvents: false,
  lastSyncAt: null,
  lastSyncError: null,
};

/** 'primary' is Google's alias for the account's own calendar: shown as that calendar's id. */
function chosenOf(calendarId: string, calendars: GoogleLinkStatus['calendars']): string {
  return calendarId === 'primary' ? (calendars.find((c) => c.primary)?.id ?? 'primary') : calendarId;
}
const writable = (c: { accessRole: string }) => c.accessRole === 'owner' || c.accessRole === 'writer';

/** Chooses the calendar the user's appointments are written to: one of theirs that takes events. */
export async function chooseGoogleCalendar(auth: AuthContext, userId: string, calendarId: string): Promise<GoogleLinkStatus> {
  ownOnly(auth, userId);
  const link = await repo.getGoogleLink(auth.practiceId, userId);
  if (!link?.refreshToken) throw new NotFoundError(M.googleNotLinked);
  const calendars = await listWith(await client(), auth, userId, link.refreshToken);
  const chosen = calendars.find((c) => c.id === calendarId);
  if (!chosen || !writable(chosen)) throw new ValidationError(M.googleCalendarNotWritable, { calendarId: M.googleCalendarNotWritable });
  const stored = chosen.primary ? 'primary' : chosen.id;
  if (!(await googleRepo.updateGoogleLink(auth.practiceId, userId, { calendarId: stored }))) throw new NotFoundError(M.googleNotLinked);
  await writeAudit(auth, { action: 'update', entity: 'GOOGLE_CALENDAR_LINK', entityId: userId });
  if ((link.calendarId ?? 'primary') !== stored) await resyncSoon(auth.practiceId, userId);
  return { ...statusOf(link), calendars, calendarId: chosen.id };
}

function statusOf(link: repo.GoogleLinkItem): GoogleLinkStatus {
  return {
    linked: true,
    linkedAt: link.linkedAt,
    calendars: [],
    calendarId: link.calendarId ?? 'primary',
    writesEvents: canWriteEvents(link.scopes),
    lastSyncAt: link.lastSyncAt ?? null,
    lastSyncError: link.lastSyncError ?? null,
  };
}

async function listWith(google: GoogleCalendarClient, auth: AuthContext, userId: string, refreshToken: string): Promise<GoogleLinkStatus['calendars']> {
  try {
    const { accessToken } = await google.refresh(refreshToken);
    const entries = await google.calendarList(accessToken);
    return entries.map(({ id, summary, primary, accessRole, backgroundColor }) => ({ id, summary, primary, accessRole, backgroundColor }));
  } catch (error) {
    if (error instanceof GoogleError && error.code === 'invalid_grant') {
      // Removed on Google's side: the stored token is worthless, so the link goes too.
      await repo.deleteGoogleLink(auth.practiceId, userId);
      throw new ConflictError(M.googleLinkLost);
    }
    throw unavailable();
  }
}

/** The link's state and, when linked, the user's calendars as Google lists them now. */
export async function googleCalendars(auth: AuthContext, userId: string): Promise<GoogleLinkStatus> {
  ownOnly(auth, userId);
  const link = await repo.getGoogleLink(auth.practiceId, userId);
  if (!link?.refreshToken) return NOT_LINKED;
  const calendars = await listWith(await client(), auth, userId, link.refreshToken);
  const status = statusOf(link);
  return { ...status, calendars, calendarId: chosenOf(status.calendarId!, calendars) };
}

/**
 * The appointments already booked follow a new link or a new calendar (google-resync.ts). The link
 * stands even if the scheduler fails: they are then written as each one next changes.
 */
async function resyncSoon(practiceId: string, userId: string): Promise<void> {
  try {
    await scheduleGoogleResync(practiceId, userId);
  } catch (error) {
    log.error('google calendar resync not scheduled', { error: (error as Error)?.name });
  }
}

/**
 * Unlinks at once; an admin can unlink anyone (someone who left the practice). The events Tidewell
 * wrote are then deleted from Google and the token revoked there, a few seconds later in the
 * schedule target (google-resync.ts), which keeps the token until it has done so.
 */
export async function unlinkGoogle(auth: AuthContext, userId: string): Promise<GoogleLinkStatus> {
  if (userId !== auth.userId && auth.role !== 'admin') throw new ForbiddenError(M.googleOwnOnly);
  const link = await repo.getGoogleLink(auth.practiceId, userId);
  if (!link?.refreshToken) throw new NotFoundError(M.googleNotLinked);
  const unlinkedAt = new Date().toISOString();
  await googleRepo.parkGoogleToken(auth.practiceId, userId, unlinkedAt, link.refreshToken);
  await repo.deleteGoogleLink(auth.practiceId, userId);
  // Taken once the link is gone: an event written after this instant was written by a pass that
  // reads the link again afterwards, finds it gone and takes the event out itself (google-push.ts).
  const writtenBefore = new Date().toISOString();
  await writeAudit(auth, { action: 'delete', entity: 'GOOGLE_CALENDAR_LINK', entityId: userId });
  try {
    await scheduleGoogleUnlinkCleanup(auth.practiceId, userId, unlinkedAt, writtenBefore);
  } catch (error) {
    log.error('google calendar cleanup not scheduled', { error: (error as Error)?.name });
    // Without the cleanup the events stay in Google, but the token is not left usable.
    await googleRepo.deleteParkedGoogleToken(auth.practiceId, userId, unlinkedAt);
    try {
      await (await client()).revoke(link.refreshToken);
    } catch {
      // Unlinked here either way; the user can also remove access in their Google account.
    }
  }
  return NOT_LINKED;
}
