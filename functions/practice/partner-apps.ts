import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PARTNER_MESSAGES, PartnerApp, type PartnerAppList, type PartnerAppsUpdate } from '../../shared/partners/partner-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/** Partner app items: pk practiceId, sk PARTNER_APP#<partnerAppId> (docs/access-patterns.md). */
export const PARTNER_APP_PREFIX = 'PARTNER_APP#';
export const partnerAppKey = (partnerAppId: string) => `${PARTNER_APP_PREFIX}${partnerAppId}`;

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

export function partnerAppFromItem(item: Record<string, unknown>): PartnerApp {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { practiceId, sk, entityType, ...rest } = item;
  return PartnerApp.parse(rest);
}

export async function listPartnerApps(practiceId: string): Promise<PartnerApp[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': PARTNER_APP_PREFIX },
  });
  return items.map(partnerAppFromItem).sort((a, b) => a.name.localeCompare(b.name));
}

export async function getPartnerApp(practiceId: string, partnerAppId: string): Promise<PartnerApp | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: partnerAppKey(partnerAppId) }, ConsistentRead: true }));
  return out.Item ? partnerAppFromItem(out.Item) : null;
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

export function partnerAppItem(practiceId: string, app: PartnerApp): Record<string, unknown> {
  return { ...app, practiceId, sk: partnerAppKey(app.partnerAppId), entityType: 'PARTNER_APP' };
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
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: partnerAppItem(auth.practiceId, app) }));
  }
  for (const removed of current.keys()) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: partnerAppKey(removed) } }));
  }
  await writeAudit(auth, { action: 'update', entity: 'partner-apps' });
  return partnerAppList(auth);
}
