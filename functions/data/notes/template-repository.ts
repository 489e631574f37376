import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { Template, TEMPLATE_MESSAGES } from '../../../shared/templates/template-schema.js';
import { ConflictError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { queryAll } from '../../lib/table/query-all.js';
import { parseItem, type Item } from '../../lib/table/item.js';

/*
 * Template items (docs/access-patterns.md):
 *   template         sk TEMPLATE#<templateId>
 *   shortcut claim   sk TEMPLATE_SHORTCUT#<shortcut lower case> { templateId }: one template per shortcut
 *   link             sk TEMPLATE_LINK#<interactionId>#<templateId>
 */
export const templateKey = (id: string) => `TEMPLATE#${id}`;
export const shortcutKey = (shortcut: string) => `TEMPLATE_SHORTCUT#${shortcut.trim().toLowerCase()}`;
export const templateLinkKey = (interactionId: string, templateId: string) => `TEMPLATE_LINK#${interactionId}#${templateId}`;

const toItem = (practiceId: string, t: Template): Item => ({ ...t, practiceId, sk: templateKey(t.templateId), entityType: 'TEMPLATE' });
const fromItem = (item: Item): Template => parseItem('template', Template, item);

export async function getTemplate(practiceId: string, id: string): Promise<Template | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: templateKey(id) }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

export async function listTemplates(practiceId: string): Promise<Template[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': 'TEMPLATE#' },
  });
  const out = items.map(fromItem);
  return out.sort((a, b) => a.templateName.localeCompare(b.templateName));
}

export async function findTemplateIdByShortcut(practiceId: string, shortcut: string): Promise<string | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: shortcutKey(shortcut) }, ConsistentRead: true }));
  return (out.Item?.templateId as string | undefined) ?? null;
}

/**
 * Writes the template and claims its shortcut in one transaction: a shortcut held by another
 * template refuses the write with 409, and a changed shortcut releases the old claim.
 */
export async function putTemplate(practiceId: string, next: Template, previous: Template | null): Promise<Template> {
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Put: {
        TableName: tableName(),
        Item: toItem(practiceId, next),
        ...(previous ? unchangedSince('updatedAt', previous.updatedAt) : { ConditionExpression: 'attribute_not_exists(sk)' }),
      },
    },
  ];
  const shortcutChanged = !previous || shortcutKey(previous.shortcut) !== shortcutKey(next.shortcut);
  if (shortcutChanged) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: { practiceId, sk: shortcutKey(next.shortcut), entityType: 'TEMPLATE_SHORTCUT', templateId: next.templateId },
        ConditionExpression: 'attribute_not_exists(sk) OR templateId = :id',
        ExpressionAttributeValues: { ':id': next.templateId },
      },
    });
    if (previous) items.push({ Delete: { TableName: tableName(), Key: { practiceId, sk: shortcutKey(previous.shortcut) } } });
  }
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (previous && (await getTemplate(practiceId, next.templateId))?.updatedAt !== previous.updatedAt) {
      throw new ConflictError('This template was changed by someone else. Reload it and try again.');
    }
    throw new ConflictError(TEMPLATE_MESSAGES.shortcutTaken);
  }
  return next;
}

export async function deleteTemplate(practiceId: string, t: Template): Promise<void> {
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: { practiceId, sk: templateKey(t.templateId) } } },
        {
          Delete: {
            TableName: tableName(),
            Key: { practiceId, sk: shortcutKey(t.shortcut) },
            ConditionExpression: 'attribute_not_exists(sk) OR templateId = :id',
            ExpressionAttributeValues: { ':id': t.templateId },
          },
        },
      ],
    }),
  );
}

export async function putTemplateLink(
  practiceId: string,
  link: { templateId: string; interactionId: string; linkedBy: string; linkedAt: string },
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { practiceId, sk: templateLinkKey(link.interactionId, link.templateId), entityType: 'TEMPLATE_LINK', ...link },
    }),
  );
}
