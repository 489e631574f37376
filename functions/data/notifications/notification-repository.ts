import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
// Constants and the notification's own schema, not the API's: the notes and messaging groups write
// notifications, and would otherwise build every notification schema on a cold start.
import {
  compareNotifications,
  NOTIFICATION_CATCH_UP_DAYS,
  NOTIFICATION_LIST_DEFAULT,
  NOTIFICATION_STATUS_ORDER,
  NOTIFICATION_TYPES,
  OPEN_NOTIFICATION_STATUSES,
  UNREAD_NOTIFICATION_STATUSES,
} from '../../../shared/notifications/notification-constants.js';
import { NotificationVersion } from '../../../shared/notifications/notification-record.js';
import type {
  Notification,
  NotificationCreateInput,
  NotificationStatus,
  NotificationType,
  NotificationUpdateInput,
} from '../../../shared/notifications/notification-schema.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { INDEXES, tableName, TTL_ATTRIBUTE, type IndexDefinition } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, withDefaults, type Item } from '../../lib/table/item.js';

/*
 * Notification items (docs/access-patterns.md). Every version is its own item; only the latest
 * carries index keys, so index queries answer latest versions only:
 *   version      sk NOTIFICATION#<id>#V#<version, 10 digits>, isLatestVersion
 *   by status    gsi2 gsi2pk NOTIF#<type>#<status>, gsi2sk <createdAt>#<id>        (latest only)
 *   by source    gsi1 gsi1pk NOTIF#SRC#<type>#<sourceId>, gsi1sk <createdAt>#<id>  (latest only, when sourceId)
 *   by numbers   gsi1 gsi1pk NOTIF#SMSPAIR#<10 digits>#<10 digits>, the pair in order (an SMS without a sourceId,
 *                so its conversation's read and archive find it; once backfillSmsPairKeys wrote NOTIF_KEYS#SMSPAIR)
 *   change log   sk NOTIFLOG#<lastUpdated>#<id>#<version>: a copy of each version for catch-up, expires after 7 days
 *   by person    sk NOTIFPEOPLE#<id>: a copy of the latest version, when it is assigned or related to someone,
 *                gsi1 NOTIF#TO#<practiceId>#<assigned>#<type>#<status> and gsi2 NOTIF#REL#<practiceId>#<relatedTo>#<type>#<status>,
 *                gsi?sk <createdAt>#<id> (each when set), so the list filtered on either reads its own partitions
 *                (once backfillNotificationPeopleKeys wrote NOTIF_KEYS#PEOPLE; before that it filters every one)
 *   counts       sk NOTIF_COUNTS: unread (UNREAD, UPDATED) latest versions per <type>#<status>, and per assignee
 *                (mine#<userId>), added to after each write, so the polled unread count reads one item
 *                (`indexed` once backfillNotificationCounts counted what was written before)
 */
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const NOTIFICATION_ID_TAKEN = 'A notification with this id already exists';
export const NOTIFICATION_STALE = 'This notification was changed by someone else. Reload it and try again.';

const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,120}$/;
const pad = (v: number) => String(v).padStart(10, '0');
export const notificationVersionPrefix = (id: string) => `NOTIFICATION#${id}#V#`;
export const notificationVersionKey = (id: string, version: number) => `${notificationVersionPrefix(id)}${pad(version)}`;
export const notificationsByStatusPartition = (type: NotificationType, status: NotificationStatus) => `NOTIF#${type}#${status}`;
export const notificationsBySourcePartition = (type: NotificationType, sourceId: string) => `NOTIF#SRC#${type}#${sourceId}`;
export const NOTIFICATION_LOG_PREFIX = 'NOTIFLOG#';
export const notificationLogKey = (n: Pick<Notification, 'lastUpdated' | 'notificationId' | 'notificationVersion'>) =>
  `${NOTIFICATION_LOG_PREFIX}${n.lastUpdated}#${n.notificationId}#${pad(n.notificationVersion)}`;

/** The last 10 digits of a number: how an SMS notification's numbers are matched to a conversation's. */
export const pairDigits = (value: unknown) =>
  String(value ?? '')
    .replace(/\D/g, '')
    .slice(-10);
export const smsPairPartition = (a: string, b: string) => `NOTIF#SMSPAIR#${[pairDigits(a), pairDigits(b)].sort().join('#')}`;

/** An SMS its creator gave no sourceId is kept under its two numbers, either way round. */
function smsPairOf(n: Pick<Notification, 'notificationType' | 'sourceId' | 'data'>): string | null {
  if (n.notificationType !== 'SMS' || n.sourceId) return null;
  const from = pairDigits(n.data?.from);
  const to = pairDigits(n.data?.to);
  return from && to ? smsPairPartition(from, to) : null;
}

export const NOTIFICATION_COUNTS_KEY = 'NOTIF_COUNTS';
export const NOTIFICATION_SMS_PAIR_MARKER = 'NOTIF_KEYS#SMSPAIR';
export const NOTIFICATION_PEOPLE_MARKER = 'NOTIF_KEYS#PEOPLE';
const peopleKey = (id: string) => `NOTIFPEOPLE#${id}`;
export const notificationsAssignedPartition = (practiceId: string, assigned: string, type: NotificationType, status: NotificationStatus) =>
  `NOTIF#TO#${practiceId}#${assigned}#${type}#${status}`;
export const notificationsRelatedPartition = (practiceId: string, relatedTo: string, type: NotificationType, status: NotificationStatus) =>
  `NOTIF#REL#${practiceId}#${relatedTo}#${type}#${status}`;

export interface Actor {
  userId: string;
}

function assertId(id: string): void {
  if (!ID_PATTERN.test(id)) throw new ValidationError('notificationId may contain only letters, digits and . _ : -', { notificationId: 'is invalid' });
}

const INDEX_FIELDS = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] as const;

function toItem(n: Notification): Item {
  const sortKey = `${n.createdAt}#${n.notificationId}`;
  return {
    ...n,
    entityType: 'NOTIFICATION',
    gsi2pk: notificationsByStatusPartition(n.notificationType, n.notificationStatus),
    gsi2sk: sortKey,
    ...bySourceKeys(n),
  };
}

/** The by-source index keys: the source when it has one, else an SMS's two numbers. */
export function bySourceKeys(n: Notification): { gsi1pk?: string; gsi1sk?: string } {
  const sortKey = `${n.createdAt}#${n.notificationId}`;
  if (n.sourceId) return { gsi1pk: notificationsBySourcePartition(n.notificationType, n.sourceId), gsi1sk: sortKey };
  const pair = smsPairOf(n);
  return pair ? { gsi1pk: pair, gsi1sk: sortKey } : {};
}

/** The latest version under its assignee and what it relates to; null when it has neither. */
export function peopleItem(n: Notification): Item | null {
  if (!n.assigned && !n.relatedTo) return null;
  const sortKey = `${n.createdAt}#${n.notificationId}`;
  return {
    ...n,
    sk: peopleKey(n.notificationId),
    versionSk: n.sk,
    entityType: 'NOTIFICATION_PEOPLE',
    ...(n.assigned ? { gsi1pk: notificationsAssignedPartition(n.practiceId, n.assigned, n.notificationType, n.notificationStatus), gsi1sk: sortKey } : {}),
    ...(n.relatedTo ? { gsi2pk: notificationsRelatedPartition(n.practiceId, n.relatedTo, n.notificationType, n.notificationStatus), gsi2sk: sortKey } : {}),
  };
}

/** The transaction's write of the by-person copy: the new one, or away with the old one. */
function peopleWrite(next: Notification, current: Notification | null) {
  const item = peopleItem(next);
  if (item) return [{ Put: { TableName: tableName(), Item: item } }];
  return current && peopleItem(current)
    ? [{ Delete: { TableName: tableName(), Key: { practiceId: next.practiceId, sk: peopleKey(next.notificationId) } } }]
    : [];
}

function logItem(n: Notification): Item {
  return {
    ...n,
    sk: notificationLogKey(n),
    versionSk: n.sk,
    entityType: 'NOTIFICATION_LOG',
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(n.lastUpdated) / 1000) + NOTIFICATION_CATCH_UP_DAYS * 86_400,
  };
}

/** What a version written before a field existed reads as; one never updated was last updated when it was created. */
const versionDefaults = (item: Item): Item => ({
  sourceId: null,
  relatedTo: null,
  assigned: null,
  previouslyAssigned: null,
  author: null,
  comments: null,
  text: null,
  patientId: null,
  dueOn: null,
  lastUpdatedBy: null,
  data: null,
  isLatestVersion: false,
  urgent: false,
  lastUpdated: item.createdAt,
});

/**
 * A version, its change-log copy or its by-person copy as the notification: a copy answers the
 * version it copies (versionSk), not its own sort key.
 */
export function fromItem(item: Item): Notification {
  const version = parseItem('notification', NotificationVersion, withDefaults(item, versionDefaults(item)), ['versionSk', TTL_ATTRIBUTE]);
  return { practiceId: String(item.practiceId), sk: String(item.versionSk ?? item.sk), ...version };
}

/* ---------- unread counts ---------- */

type Counted = Pick<Notification, 'notificationType' | 'notificationStatus' | 'assigned'>;

/** What one latest version adds to the counts item: one under its type and status, one for its assignee, while unread. */
export function countsOf(n: Counted | null): Record<string, number> {
  if (!n || !UNREAD_NOTIFICATION_STATUSES.includes(n.notificationStatus)) return {};
  return { [`${n.notificationType}#${n.notificationStatus}`]: 1, ...(n.assigned ? { [`mine#${n.assigned}`]: 1 } : {}) };
}

/**
 * A latest version went from `before` to `after`: the counts move by the difference. A separate
 * write after the version's transaction, not part of it: every write of the practice touches this
 * item, and concurrent transactions on one item cancel each other.
 */
async function countChange(practiceId: string, before: Counted | null, after: Counted | null): Promise<void> {
  const [b, a] = [countsOf(before), countsOf(after)];
  const changed = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => (a[k] ?? 0) !== (b[k] ?? 0));
  if (changed.length === 0) return;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { practiceId, sk: NOTIFICATION_COUNTS_KEY },
      UpdateExpression: `ADD ${changed.map((_, i) => `#k${i} :k${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(changed.map((k, i) => [`#k${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(changed.map((k, i) => [`:k${i}`, (a[k] ?? 0) - (b[k] ?? 0)])),
    }),
  );
}

/* ---------- writes ---------- */

export interface NewNotification extends NotificationCreateInput {
  /** A deterministic id makes the create idempotent (e.g. one notification per reminder fire). */
  notificationId?: string;
}

/**
 * Writes version 1 (refused with 409 if the id exists) and its change-log copy. Subscribers hear
 * of it from the table's stream (functions/workers/notification-stream), not from here.
 */
export async function createNotification(practiceId: string, input: NewNotification, actor: Actor, now = new Date()): Promise<Notification> {
  const notificationId = input.notificationId ?? randomUUID();
  assertId(notificationId);
  const at = now.toISOString();
  const n: Notification = {
    practiceId,
    sk: notificationVersionKey(notificationId, 1),
    notificationId,
    notificationVersion: 1,
    isLatestVersion: true,
    sourceId: input.sourceId ?? null,
    relatedTo: input.relatedTo ?? null,
    notificationType: input.notificationType,
    notificationStatus: input.notificationStatus ?? 'UNREAD',
    assigned: input.assigned ?? null,
    previouslyAssigned: input.previouslyAssigned ?? null,
    author: input.author ?? actor.userId,
    comments: input.comments ?? null,
    text: input.text ?? null,
    urgent: input.urgent ?? false,
    patientId: input.patientId ?? null,
    createdAt: at,
    dueOn: input.dueOn ?? null,
    lastUpdated: at,
    lastUpdatedBy: actor.userId,
    data: input.data ?? null,
  };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: toItem(n), ConditionExpression: 'attribute_not_exists(sk)' } },
          { Put: { TableName: tableName(), Item: logItem(n) } },
          ...peopleWrite(n, null),
        ],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(NOTIFICATION_ID_TAKEN);
    throw error;
  }
  await countChange(practiceId, null, n);
  return n;
}

export type NotificationChanges = Omit<NotificationUpdateInput, 'notificationVersion'>;

/**
 * Writes version N+1 as the latest and flips version N in one transaction, conditioned on N still
 * being the latest: a concurrent or stale update (expectedVersion behind) gets 409. The new
 * version reaches subscribers through the table's stream.
 */
export async function updateNotification(
  practiceId: string,
  notificationId: string,
  changes: NotificationChanges,
  actor: Actor,
  options: { expectedVersion?: number; now?: Date; latest?: Notification } = {},
): Promise<Notification> {
  // The latest version as the caller just found it (by its source) is not read again; see the retry below.
  const current = options.latest ?? (await getLatestNotification(practiceId, notificationId));
  if (!current) throw new NotFoundError(NOTIFICATION_NOT_FOUND);
  if (options.expectedVersion !== undefined && options.expectedVersion !== current.notificationVersion) {
    throw new ConflictError(NOTIFICATION_STALE, { notificationVersion: current.notificationVersion });
  }
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<Notification>;
  const version = current.notificationVersion + 1;
  const next: Notification = {
    ...current,
    ...defined,
    practiceId,
    notificationId,
    notificationType: current.notificationType,
    createdAt: current.createdAt,
    sk: notificationVersionKey(notificationId, version),
    notificationVersion: version,
    isLatestVersion: true,
    lastUpdated: (options.now ?? new Date()).toISOString(),
    lastUpdatedBy: actor.userId,
  };
  if (next.lastUpdated <= current.lastUpdated) next.lastUpdated = new Date(Date.parse(current.lastUpdated) + 1).toISOString();
  if (changes.assigned !== undefined && changes.assigned !== current.assigned && changes.previouslyAssigned === undefined) {
    next.previouslyAssigned = current.assigned;
  }
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: toItem(next), ConditionExpression: 'attribute_not_exists(sk)' } },
          {
            Update: {
              TableName: tableName(),
              Key: { practiceId, sk: current.sk },
              UpdateExpression: `SET isLatestVersion = :false REMOVE ${INDEX_FIELDS.join(', ')}`,
              ConditionExpression: 'notificationVersion = :v AND isLatestVersion = :true',
              ExpressionAttributeValues: { ':v': current.notificationVersion, ':true': true, ':false': false },
            },
          },
          { Put: { TableName: tableName(), Item: logItem(next) } },
          ...peopleWrite(next, current),
        ],
      }),
    );
  } catch (error) {
    // The index the caller found it by lags the table, or it changed meanwhile: once more over the version read now.
    if (isConditionFailure(error) && options.latest) return updateNotification(practiceId, notificationId, changes, actor, { ...options, latest: undefined });
    if (isConditionFailure(error)) throw new ConflictError(NOTIFICATION_STALE);
    throw error;
  }
  await countChange(practiceId, current, next);
  return next;
}

/** Deleting keeps the history: a new version with status DELETED. */
export function deleteNotification(practiceId: string, notificationId: string, actor: Actor, expectedVersion?: number): Promise<Notification> {
  return updateNotification(practiceId, notificationId, { notificationStatus: 'DELETED' }, actor, { expectedVersion });
}

/* ---------- reads ---------- */

/** The latest version by id: one consistent Query on the id's versions, newest first. */
export async function getLatestNotification(practiceId: string, notificationId: string): Promise<Notification | null> {
  if (!ID_PATTERN.test(notificationId)) return null;
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':p': practiceId, ':prefix': notificationVersionPrefix(notificationId) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  return item ? fromItem(item) : null;
}

/** Every version of one notification, oldest first (history). */
export async function listNotificationVersions(practiceId: string, notificationId: string): Promise<Notification[]> {
  if (!ID_PATTERN.test(notificationId)) return [];
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': notificationVersionPrefix(notificationId) },
    ConsistentRead: true,
  });
  return items.map(fromItem);
}

/** Latest notifications of a type about one source (a note, a task, a call), newest first. */
export async function findLatestBySource(practiceId: string, type: NotificationType, sourceId: string): Promise<Notification[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: INDEXES.gsi1.indexName,
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': notificationsBySourcePartition(type, sourceId) },
    ScanIndexForward: false,
  });
  return newestVersionEach(items.map(fromItem).filter((n) => n.isLatestVersion));
}

/**
 * The latest SMS notifications of one conversation: those whose source is the conversation (each of
 * `conversationIds`) and those kept under its two numbers. A conversation's read or archive reads
 * its own texts' notifications, not the practice's.
 */
export async function listConversationNotifications(conversationIds: readonly string[], numbers: { from: string; to: string }): Promise<Notification[]> {
  const partitions = [...conversationIds.map((id) => notificationsBySourcePartition('SMS', id)), smsPairPartition(numbers.from, numbers.to)];
  const items = (
    await Promise.all(
      partitions.map((pk) => queryAll({ IndexName: INDEXES.gsi1.indexName, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': pk } })),
    )
  ).flat();
  return newestVersionEach(items.map(fromItem).filter((n) => n.isLatestVersion));
}

export async function smsPairsIndexed(practiceId: string): Promise<boolean> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: NOTIFICATION_SMS_PAIR_MARKER }, ConsistentRead: true }),
  );
  return Boolean(out.Item);
}

export interface NotificationFilters {
  types?: readonly NotificationType[];
  statuses?: readonly NotificationStatus[];
  notificationId?: string;
  sourceId?: string;
  relatedTo?: string;
  assigned?: string;
  limit?: number;
}

/** The server-side filters a listing applies to each partition's items. */
function partitionFilter(filters: NotificationFilters): {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  if (filters.assigned) {
    conditions.push('#assigned = :assigned');
    names['#assigned'] = 'assigned';
    values[':assigned'] = filters.assigned;
  }
  if (filters.relatedTo) {
    conditions.push('#relatedTo = :relatedTo');
    names['#relatedTo'] = 'relatedTo';
    values[':relatedTo'] = filters.relatedTo;
  }
  return conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names, values } : { values };
}

interface PartitionCursor {
  pk: string;
  buffered: Item[];
  next: Record<string, unknown> | undefined;
  done: boolean;
}

/**
 * The newest `want` latest versions of one status across the given types' partitions, read in
 * small pages and merged by each partition's sort key (<createdAt>#<id>): the items read are the
 * ones answered plus at most one page per partition, however many each partition holds.
 */
async function newestAcross(pks: readonly string[], want: number, filters: NotificationFilters, index: IndexDefinition = INDEXES.gsi2): Promise<Item[]> {
  const { values, ...filter } = partitionFilter(filters);
  const page = Math.max(5, Math.ceil(want / pks.length / 2));
  const cursors: PartitionCursor[] = pks.map((pk) => ({ pk, buffered: [], next: undefined, done: false }));
  const fill = async (c: PartitionCursor) => {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        KeyConditionExpression: `${index.partitionKey} = :pk`,
        ExpressionAttributeValues: { ':pk': c.pk, ...values },
        ...filter,
        ScanIndexForward: false,
        Limit: pks.length === 1 ? want : page,
        ExclusiveStartKey: c.next,
      }),
    );
    c.buffered.push(...(out.Items ?? []));
    c.next = out.LastEvaluatedKey;
    c.done = !c.next;
  };
  const found: Item[] = [];
  while (found.length < want) {
    // A partition whose page ran out may hold the next newest: read its next page before choosing.
    const empty = cursors.filter((c) => c.buffered.length === 0 && !c.done);
    if (empty.length) {
      await Promise.all(empty.map(fill));
      continue;
    }
    const live = cursors.filter((c) => c.buffered.length > 0);
    if (live.length === 0) break;
    const newest = live.reduce((a, b) => (String(b.buffered[0]![index.sortKey]) > String(a.buffered[0]![index.sortKey]) ? b : a));
    found.push(newest.buffered.shift()!);
  }
  return found;
}

/**
 * Latest versions matching the filters of spec shell §7.2, merged updated → unread → read.
 * Without statuses the open ones (UPDATED, UNREAD, READ) are listed; without types, all types.
 */
export async function listLatest(practiceId: string, filters: NotificationFilters = {}): Promise<Notification[]> {
  const limit = filters.limit ?? NOTIFICATION_LIST_DEFAULT;
  const types = filters.types?.length ? filters.types : NOTIFICATION_TYPES;
  const statuses = filters.statuses?.length ? filters.statuses : OPEN_NOTIFICATION_STATUSES;
  const statusGiven = Boolean(filters.statuses?.length);
  const keep = matching(filters);

  let found: Notification[];
  if (filters.notificationId) {
    const n = await getLatestNotification(practiceId, filters.notificationId);
    found = n && (!statusGiven || statuses.includes(n.notificationStatus)) ? [n] : [];
  } else if (filters.sourceId) {
    const sourceId = filters.sourceId;
    found = (await Promise.all(types.map((t) => findLatestBySource(practiceId, t, sourceId)))).flat();
    found = found.filter((n) => (statusGiven ? statuses.includes(n.notificationStatus) : n.notificationStatus !== 'DELETED'));
  } else {
    // Related to something, or assigned to someone, the by-person partitions hold them (the other filter stays a filter).
    const { relatedTo, assigned } = filters;
    const byPerson = (relatedTo || assigned) && (await peopleIndexed(practiceId));
    const partition = (t: NotificationType, status: NotificationStatus) =>
      !byPerson
        ? notificationsByStatusPartition(t, status)
        : relatedTo
          ? notificationsRelatedPartition(practiceId, relatedTo, t, status)
          : notificationsAssignedPartition(practiceId, assigned!, t, status);
    // The merge order is by status first: each status is read only while the page is not full.
    found = [];
    for (const status of NOTIFICATION_STATUS_ORDER.filter((s) => statuses.includes(s))) {
      if (found.length >= limit) break;
      const items = await newestAcross(
        types.map((t) => partition(t, status)),
        limit - found.length,
        byPerson ? { assigned: relatedTo ? assigned : undefined } : filters,
        byPerson && !relatedTo ? INDEXES.gsi1 : INDEXES.gsi2,
      );
      found.push(...items.map(fromItem));
    }
  }
  return newestVersionEach(found).filter(keep).sort(compareNotifications).slice(0, limit);
}

async function peopleIndexed(practiceId: string): Promise<boolean> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: NOTIFICATION_PEOPLE_MARKER }, ConsistentRead: true }),
  );
  return Boolean(out.Item);
}

/**
 * One row per notification, its highest version. A Query is not isolated from a transaction: it
 * can read an update's new version before the same transaction has retired the old one, and the
 * list would show the notification twice.
 */
function newestVersionEach(notifications: readonly Notification[]): Notification[] {
  const newest = new Map<string, Notification>();
  for (const n of notifications) {
    const seen = newest.get(n.notificationId);
    if (!seen || seen.notificationVersion < n.notificationVersion) newest.set(n.notificationId, n);
  }
  return [...newest.values()];
}

/** The filters other than status, as a test on one notification. */
function matching(filters: NotificationFilters): (n: Notification) => boolean {
  const types = filters.types?.length ? filters.types : NOTIFICATION_TYPES;
  return (n) =>
    types.includes(n.notificationType) &&
    (!filters.assigned || n.assigned === filters.assigned) &&
    (!filters.relatedTo || n.relatedTo === filters.relatedTo) &&
    (!filters.sourceId || n.sourceId === filters.sourceId);
}

export interface ChangedSince {
  notifications: Notification[];
  /** False when more changed than one read holds: the browser reloads its lists instead of trusting the catch-up. */
  complete: boolean;
}

/**
 * Catch-up on reconnect: the latest version of each notification changed after `since`, closed
 * ones included so the browser can drop them. The change log is read newest first and at most
 * `limit` entries (a browser away for a day would otherwise read the whole day's log).
 */
export async function listChangedSince(practiceId: string, filters: NotificationFilters & { since: string }): Promise<ChangedSince> {
  const max = filters.limit ?? NOTIFICATION_LIST_DEFAULT;
  const from = new Date(filters.since).toISOString();
  const items = await queryAll(
    {
      KeyConditionExpression: 'practiceId = :p AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':p': practiceId, ':from': `${NOTIFICATION_LOG_PREFIX}${from}`, ':to': `${NOTIFICATION_LOG_PREFIX}~` },
      ScanIndexForward: false,
      Limit: max + 1,
    },
    max + 1,
  );
  const complete = items.length <= max;
  // The highest version per id is the latest: every later change is logged later.
  const statuses = filters.statuses?.length ? filters.statuses : undefined;
  const keep = matching(filters);
  const notifications = newestVersionEach(items.slice(0, max).map(fromItem)).filter((n) => keep(n) && (!statuses || statuses.includes(n.notificationStatus)));
  return { notifications: notifications.sort(compareNotifications), complete };
}

/** UNREAD + UPDATED latest versions by type, and those assigned to one user: one item once counted. */
export async function countUnread(practiceId: string, userId: string): Promise<{ byType: Record<NotificationType, number>; assignedToMe: number }> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: { practiceId, sk: NOTIFICATION_COUNTS_KEY }, ConsistentRead: true }));
  const item = out.Item;
  if (!item?.indexed) return countUnreadByReading(practiceId, userId);
  const n = (k: string) => Math.max(Number(item[k]) || 0, 0);
  const byType = Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, UNREAD_NOTIFICATION_STATUSES.reduce((sum, s) => sum + n(`${t}#${s}`), 0)])) as Record<
    NotificationType,
    number
  >;
  return { byType, assignedToMe: n(`mine#${userId}`) };
}

/** The counts of a practice whose counts item was not backfilled yet: every unread notification read. */
export async function countUnreadByReading(practiceId: string, userId: string): Promise<{ byType: Record<NotificationType, number>; assignedToMe: number }> {
  const parts = NOTIFICATION_TYPES.flatMap((t) => UNREAD_NOTIFICATION_STATUSES.map((s) => [t, s] as const));
  const results = await Promise.all(
    parts.map(async ([t, s]) => {
      const items = await queryAll({
        TableName: tableName(),
        IndexName: INDEXES.gsi2.indexName,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': notificationsByStatusPartition(t, s) },
        ProjectionExpression: '#a',
        ExpressionAttributeNames: { '#a': 'assigned' },
      });
      return { type: t, total: items.length, mine: items.filter((i) => i.assigned === userId).length };
    }),
  );
  const byType = Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, 0])) as Record<NotificationType, number>;
  let assignedToMe = 0;
  for (const r of results) {
    byType[r.type] += r.total;
    assignedToMe += r.mine;
  }
  return { byType, assignedToMe };
}
