import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Fax, FAX_STATUS_RANK, type FaxStatus } from '../../../shared/faxes/fax-schema.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';

/**
 * Fax items: pk practiceId, sk FAX#<ident> (README access patterns); the vendor's fax id finds its
 * record through a pointer item sk FAXID#<faxId> written with it, so a callback needs one read.
 */
export const FAX_PREFIX = 'FAX#';
export const faxKey = (ident: string) => `${FAX_PREFIX}${ident}`;
export const vendorFaxKey = (faxId: string) => `FAXID#${faxId}`;

export function faxFromItem(item: Record<string, unknown>): Fax {
  return Fax.parse({
    ident: item.ident,
    faxId: item.faxId ?? null,
    direction: item.direction,
    status: item.status,
    sender: item.sender ?? '',
    recipient: item.recipient ?? '',
    recipientName: item.recipientName ?? null,
    patientId: item.patientId ?? null,
    patientName: item.patientName ?? null,
    sourceNoteId: item.sourceNoteId ?? null,
    faxNoteId: item.faxNoteId ?? null,
    fileKey: item.fileKey ?? '',
    pages: item.pages ?? null,
    coverText: item.coverText ?? null,
    errorMessage: item.errorMessage ?? null,
    read: item.read === true,
    attempts: item.attempts ?? 1,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  });
}

export function faxItem(practiceId: string, fax: Fax): Record<string, unknown> {
  return { ...fax, practiceId, sk: faxKey(fax.ident), entityType: 'FAX' };
}

export async function getFax(practiceId: string, ident: string): Promise<Fax | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: faxKey(ident) }, ConsistentRead: true }));
  return out.Item ? faxFromItem(out.Item) : null;
}

export async function getFaxByVendorId(practiceId: string, faxId: string): Promise<Fax | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: vendorFaxKey(faxId) }, ConsistentRead: true }));
  return out.Item ? getFax(practiceId, String(out.Item.ident)) : null;
}

export async function putFax(practiceId: string, fax: Fax): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: faxItem(practiceId, fax) }));
  if (fax.faxId)
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { practiceId, sk: vendorFaxKey(fax.faxId), entityType: 'FAX_VENDOR_ID', ident: fax.ident } }),
    );
}

export async function listFaxes(practiceId: string): Promise<Fax[]> {
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': FAX_PREFIX },
  });
  return items.map(faxFromItem);
}

/** True when a status may replace another: never backwards, never the same again (a repeated callback changes nothing). */
export function advancesStatus(from: FaxStatus, to: FaxStatus): boolean {
  return FAX_STATUS_RANK[to] > FAX_STATUS_RANK[from];
}
