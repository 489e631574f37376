import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../../functions/lib/table/client.js';
import { tableName } from '../../../functions/lib/table/definition.js';
import type { DemoUser } from './demo-users.js';

/** Every flag of spec shell-and-operations §Feature flags, on for the demo practice. */
export const DEMO_FEATURE_FLAGS: Record<string, boolean> = {
  tidewell_copilot: true,
  member_clinical_data_share: true,
  clinical_problems_list_redesign: true,
  clinical_note_link_structured_data: true,
  general_copilot_agent: true,
  clinical_linked_health_summary: true,
  new_messaging_endpoint: true,
  trending_labs: true,
  ai_analyze: true,
  ai_streaming: true,
  copilot_custom_templates: true,
};

export const DEMO_PRACTICE_PHONE = '+15415550100';

export function practiceItem(practice: { practiceId: string; practiceName: string }, now: string): Record<string, unknown> {
  return {
    practiceId: practice.practiceId,
    sk: 'PRACTICE',
    practiceName: practice.practiceName,
    productDeactivatedAt: null,
    phoneNumber: DEMO_PRACTICE_PHONE,
    additionalPhoneNumbers: [],
    featureFlags: DEMO_FEATURE_FLAGS,
    createdAt: now,
  };
}

/** A User item (spec shell §3 User) keyed by the Cognito sub, the id the token carries. */
export function userItem(
  practiceId: string,
  userId: string,
  user: Pick<DemoUser, 'email' | 'firstName' | 'lastName' | 'group'> & Partial<DemoUser>,
  now: string,
): Record<string, unknown> {
  return {
    practiceId,
    sk: `USER#${userId}`,
    userId,
    firstName: user.firstName,
    lastName: user.lastName,
    name: `${user.firstName} ${user.lastName}`,
    emailAddress: user.email,
    cellNumber: null,
    userStatus: 'active',
    educationDegree: user.educationDegree ?? null,
    npiNumber: user.npiNumber ?? null,
    permissionGroup: user.group,
    createdAt: now,
    veradigmUserType: user.prescriberType ?? null,
  };
}

/** Writes the item unless it exists, so a restart never overwrites what someone changed. */
export function putIfAbsent(item: Record<string, unknown>): Promise<boolean> {
  return putIfAbsentIn(documentClient(), tableName(), item);
}

export async function putIfAbsentIn(client: DynamoDBDocumentClient, table: string, item: Record<string, unknown>): Promise<boolean> {
  try {
    await client.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw e;
  }
}
