import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PARTNER_MESSAGES, PartnerApp, type PartnerAppInput, type PartnerAppList } from '../../shared/partners/partner-schema.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
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

export async function partnerAppList(auth: AuthContext): Promise<PartnerAppList> {
  return { partnerApps: await listPartnerApps(auth.practiceId), allowedOrigins: allowedPartnerOrigins() };
}

export function partnerAppItem(practiceId: string, app: PartnerApp): Record<string, unknown> {
  return { ...app, practiceId, sk: partnerAppKey(app.partnerAppId), entityType: 'PARTNER_APP' };
}

/** PUT: creates or replaces the app; its origin must be one the CSP allows. */
export async function putPartnerApp(auth: AuthContext, partnerAppId: string, input: PartnerAppInput, now = new Date()): Promise<PartnerApp> {
  if (!allowedPartnerOrigins().includes(input.origin)) throw new ValidationError(PARTNER_MESSAGES.originNotAllowed, { origin: PARTNER_MESSAGES.originNotAllowed });
  const existing = await getPartnerApp(auth.practiceId, partnerAppId);
  const app: PartnerApp = { ...input, ...(existing?.local ? { local: true } : {}), partnerAppId, updatedAt: now.toISOString() };
  if (!app.local) delete app.local;
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: partnerAppItem(auth.practiceId, app) }));
  await writeAudit(auth, { action: existing ? 'update' : 'create', entity: 'partner-app', entityId: partnerAppId });
  return app;
}

export async function deletePartnerApp(auth: AuthContext, partnerAppId: string): Promise<void> {
  const out = await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId: auth.practiceId, sk: partnerAppKey(partnerAppId) }, ReturnValues: 'ALL_OLD' }));
  if (!out.Attributes) throw new NotFoundError(PARTNER_MESSAGES.notFound);
  await writeAudit(auth, { action: 'delete', entity: 'partner-app', entityId: partnerAppId });
}
