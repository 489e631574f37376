import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DEFAULT_CRITICAL_ESCALATION_MINUTES,
  SEVERITY_RANK,
  type LabReview,
  type LabReviewSettings,
  type LabReviewStatus,
} from '../../../shared/labs/lab-review.js';
import { LabReviewRecord } from '../../../shared/labs/lab-review-responses.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem } from '../../lib/table/item.js';
import { documentClient } from '../../lib/table/client.js';
import { putIfUnchanged, unchangedSince } from '../../lib/table/put-if-unchanged.js';
import { INDEXES, tableName } from '../../lib/table/definition.js';

/*
 * Results to review (docs/access-patterns.md, L6–L8): one item per LAB note with results, on its
 * ordering provider's list, and the practice's critical-escalation setting.
 */
/** pk practiceId, sk LABREVIEW#<noteId>: the LAB note's result on its ordering provider's list. */
export const labReviewKey = (noteId: string) => `LABREVIEW#${noteId}`;
/** gsi1: a provider's results by status; pending ones sort critical, abnormal, normal, then oldest first. */
export const labReviewPartition = (userId: string, status: LabReviewStatus) => `LABREVIEWS#${userId}#${status}`;
const pendingSortKey = (r: Pick<LabReview, 'severity' | 'waitingSince' | 'noteId'>) => `${SEVERITY_RANK[r.severity]}#${r.waitingSince}#${r.noteId}`;
const reviewedSortKey = (r: Pick<LabReview, 'reviewedAt' | 'noteId'>) => `${r.reviewedAt ?? ''}#${r.noteId}`;
export const LAB_REVIEW_SETTINGS_KEY = 'SETTINGS#LAB_REVIEW';

/** A stored review as the list and the sign-off read it: the entity's own fields, its keys and index keys left out. */
export function reviewFromItem(item: Record<string, unknown>): LabReview {
  return parseItem('lab review', LabReviewRecord, item);
}

function reviewItem(practiceId: string, review: LabReview) {
  return {
    practiceId,
    sk: labReviewKey(review.noteId),
    entityType: 'LAB_REVIEW',
    ...review,
    [INDEXES.gsi1.partitionKey]: labReviewPartition(review.orderingProviderId, review.status),
    [INDEXES.gsi1.sortKey]: review.status === 'PENDING' ? pendingSortKey(review) : reviewedSortKey(review),
  };
}

export async function getLabReview(practiceId: string, noteId: string): Promise<LabReview | null> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: labReviewKey(noteId) }, ConsistentRead: true }));
  return out.Item ? reviewFromItem(out.Item) : null;
}

/** The Put of the delivery's transaction: written only over the version read, so a sign-off meanwhile retries the delivery. */
export function putLabReview(practiceId: string, review: LabReview, previous: LabReview | null) {
  return {
    Put: {
      TableName: tableName(),
      Item: reviewItem(practiceId, review),
      ...(previous ? unchangedSince('version', previous.version) : { ConditionExpression: 'attribute_not_exists(sk)' }),
    },
  };
}

/** L7: a provider's results of one status, pending ones in review order, reviewed ones newest first. */
export async function queryLabReviews(userId: string, status: LabReviewStatus, limit: number): Promise<LabReview[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: INDEXES.gsi1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': INDEXES.gsi1.partitionKey },
      ExpressionAttributeValues: { ':pk': labReviewPartition(userId, status) },
      ScanIndexForward: status === 'PENDING',
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(reviewFromItem);
}

/** L8: the signed-off review, written only over the version the reviewer saw; false when it changed meanwhile. */
export function putLabReviewAtVersion(practiceId: string, next: LabReview, seenVersion: number): Promise<boolean> {
  return putIfUnchanged(reviewItem(practiceId, next), 'version', seenVersion);
}

/** The follow-up text as it went (or failed), kept on the review; `version` is left alone. */
export async function setLabReviewFollowUpMessage(practiceId: string, noteId: string, message: LabReview['followUpMessage']): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: labReviewKey(noteId) },
      UpdateExpression: 'SET followUpMessage = :m',
      ExpressionAttributeValues: { ':m': message },
    }),
  );
}

/**
 * The escalation job claims the result before it makes the task, so a retried run makes none
 * twice. The claim leaves `version` alone: a reviewer's sign-off of what they saw still stands.
 */
export async function claimEscalation(practiceId: string, noteId: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: labReviewKey(noteId) },
        UpdateExpression: 'SET escalatedAt = :at',
        ConditionExpression: '#s = :pending AND attribute_not_exists(escalatedAt)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':at': at, ':pending': 'PENDING' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function recordEscalationTask(practiceId: string, noteId: string, taskId: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: labReviewKey(noteId) },
      UpdateExpression: 'SET escalatedTaskId = :t',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':t': taskId },
    }),
  );
}

/** The practice's escalation setting (absent: the default minutes). */
export async function getLabReviewSettings(practiceId: string): Promise<LabReviewSettings> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: LAB_REVIEW_SETTINGS_KEY } }));
  const minutes = Number(out.Item?.criticalEscalationMinutes);
  return { criticalEscalationMinutes: Number.isInteger(minutes) && minutes > 0 ? minutes : DEFAULT_CRITICAL_ESCALATION_MINUTES };
}

export async function putLabReviewSettingsItem(practiceId: string, settings: LabReviewSettings, updatedBy: string): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        practiceId,
        sk: LAB_REVIEW_SETTINGS_KEY,
        entityType: 'LAB_REVIEW_SETTINGS',
        criticalEscalationMinutes: settings.criticalEscalationMinutes,
        updatedAt: new Date().toISOString(),
        updatedBy,
      },
    }),
  );
}
