import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../functions/lib/table/client.js';
import { tableName } from '../../../functions/lib/table/definition.js';
import { partnerAppItem, partnerAppKey } from '../../../functions/data/partners/partner-app-repository.js';
import type { PracticePartnerApp } from '../../config/practice-config.js';

/**
 * practices/<slug>.json partnerApps into the table, once each (admins manage them after). The local
 * demo partner ('local' origin) takes this run's partner origin every start, since its port may
 * change; its name, icon and active state stay as an admin left them.
 */
export async function seedPartnerApps(practiceId: string, apps: readonly PracticePartnerApp[], localOrigin: string, now = new Date()): Promise<void> {
  for (const app of apps) {
    const local = app.origin === 'local';
    const origin = local ? localOrigin : app.origin;
    const out = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: { practiceId, sk: partnerAppKey(app.partnerAppId) }, ConsistentRead: true }),
    );
    if (out.Item && (!local || out.Item.origin === origin)) continue;
    const base = out.Item ? { ...out.Item } : { ...app, ...(local ? { local: true } : {}), updatedAt: now.toISOString() };
    const { practiceId: _p, sk: _s, entityType: _e, ...fields } = base as Record<string, unknown>;
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: partnerAppItem(practiceId, { ...(fields as PracticePartnerApp), partnerAppId: app.partnerAppId, origin }),
      }),
    );
  }
}
