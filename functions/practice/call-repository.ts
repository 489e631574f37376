import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PhoneCall } from '../../shared/calls/call-schema.js';
import { documentClient } from '../lib/table/client.js';
import { tableName } from '../lib/table/definition.js';
import { queryAll } from '../lib/table/query-all.js';

/**
 * Phone call items: pk practiceId, sk CALL#<ident> (README access patterns); the vendor's call id
 * finds its record through a pointer item sk CALLSID#<callSid> written with it, so a callback needs
 * one read. Names of numbers are not stored: they are resolved from contacts and patients on read.
 */
export const CALL_PREFIX = 'CALL#';
export const callKey = (ident: string) => `${CALL_PREFIX}${ident}`;
export const callSidKey = (callSid: string) => `CALLSID#${callSid}`;

export function callFromItem(item: Record<string, unknown>): PhoneCall {
  return PhoneCall.parse({
    ident: item.ident,
    callSid: item.callSid ?? null,
    direction: item.direction,
    status: item.status,
    callStatus: item.callStatus ?? 'queued',
    caller: item.caller ?? '',
    recipient: item.recipient ?? '',
    callerName: null,
    recipientName: null,
    patientId: item.patientId ?? null,
    patientName: item.patientName ?? null,
    assigned: item.assigned ?? null,
    placedBy: item.placedBy ?? null,
    voicemailKey: item.voicemailKey ?? null,
    voicemailSeconds: item.voicemailSeconds ?? null,
    durationSeconds: item.durationSeconds ?? null,
    noteId: item.noteId ?? null,
    ...(typeof item.missed === 'boolean' ? { missed: item.missed } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  });
}

export async function getCall(practiceId: string, ident: string): Promise<PhoneCall | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: callKey(ident) }, ConsistentRead: true }));
  return out.Item && out.Item.deleted !== true ? callFromItem(out.Item) : null;
}

export async function getCallBySid(practiceId: string, callSid: string): Promise<PhoneCall | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: callSidKey(callSid) }, ConsistentRead: true }));
  return out.Item ? getCall(practiceId, String(out.Item.ident)) : null;
}

export async function putCall(practiceId: string, call: PhoneCall): Promise<void> {
  const { callerName: _callerName, recipientName: _recipientName, ...stored } = call;
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...stored, practiceId, sk: callKey(call.ident), entityType: 'CALL' } }));
  if (call.callSid) await documentClient().send(new PutCommand({ TableName: tableName(), Item: { practiceId, sk: callSidKey(call.callSid), entityType: 'CALL_SID', ident: call.ident } }));
}

/** A deleted call leaves the list; its vendor pointer stays so a late callback finds nothing to change. */
export async function deleteCall(practiceId: string, ident: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { practiceId, sk: callKey(ident) } }));
}

export async function listCalls(practiceId: string): Promise<PhoneCall[]> {
  const items = await queryAll({ KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':p': practiceId, ':prefix': CALL_PREFIX } });
  return items.map(callFromItem);
}
