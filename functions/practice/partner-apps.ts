import { PARTNER_MESSAGES, type PartnerApp, type PartnerAppList, type PartnerAppsUpdate } from '../../shared/partners/partner-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { deletePartnerApp, listPartnerApps, putPartnerApp } from '../data/partners/partner-app-repository.js';

/**
 * The origins the web's content security policy lets frame (practices/<slug>.json partnerOrigins
 * and partnerApps, at synth; the local demo partner under npm start). An app on another origin
 * could never load, so it is refused when saved.
 */
export function allowedPartnerOrigins(): string[] {
  return (process.env.PARTNER_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** The membership windows' origin: only one the CSP frames counts. */
export function membershipOrigin(): PartnerAppList['membership'] {
  const origin = process.env.MEMBERSHIP_ORIGIN?.trim();
  if (!origin || !allowedPartnerOrigins().includes(origin)) return null;
  return { origin, local: /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin) };
}

export async function partnerAppList(auth: AuthContext): Promise<PartnerAppList> {
  return { partnerApps: await listPartnerApps(auth.practiceId), allowedOrigins: allowedPartnerOrigins(), membership: membershipOrigin() };
}

/**
 * PUT /v1/practices/partner-apps: the admin's list replaces the practice's (one route for add,
 * change and remove). Every origin must be one the CSP frames; a local app stays marked local.
 */
export async function replacePartnerApps(auth: AuthContext, update: PartnerAppsUpdate, now = new Date()): Promise<PartnerAppList> {
  const allowed = allowedPartnerOrigins();
  const fieldErrors: Record<string, string> = {};
  update.partnerApps.forEach((app, i) => {
    if (!allowed.includes(app.origin)) fieldErrors[`partnerApps.${i}.origin`] = PARTNER_MESSAGES.originNotAllowed;
  });
  if (Object.keys(fieldErrors).length) throw new ValidationError(PARTNER_MESSAGES.originNotAllowed, fieldErrors);
  const current = new Map((await listPartnerApps(auth.practiceId)).map((a) => [a.partnerAppId, a]));
  const at = now.toISOString();
  for (const input of update.partnerApps) {
    const before = current.get(input.partnerAppId);
    const app: PartnerApp = { ...input, updatedAt: at };
    delete app.local;
    if (before?.local) app.local = true;
    current.delete(input.partnerAppId);
    if (before && JSON.stringify({ ...before, updatedAt: '' }) === JSON.stringify({ ...app, updatedAt: '' })) continue;
    await putPartnerApp(auth.practiceId, app);
  }
  for (const removed of current.keys()) {
    await deletePartnerApp(auth.practiceId, removed);
  }
  await writeAudit(auth, { action: 'update', entity: 'partner-apps' });
  return partnerAppList(auth);
}
