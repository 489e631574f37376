import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Note, NoteStatus } from '../../../shared/notes/note-schema.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { documentClient } from '../../lib/table/client.js';
import { tableName } from '../../lib/table/definition.js';
import { putNoteAtVersion, type TransactItem } from './note-at-version.js';
import { toItem } from './note-repository.js';

/*
 * What an outside system delivered, once (README "Partner apps"): each accepted delivery leaves an
 * item pk practiceId, sk DELIVERY#<partnerId>#<deliveryId>, written in the same transaction as the
 * note it made or changed, so a replay (a partner's retry, a lab's second notification, a sync run
 * twice) finds it and changes nothing.
 */
export const deliveryKey = (partnerId: string, deliveryId: string) => `DELIVERY#${partnerId}#${deliveryId}`;

export async function storedDelivery(practiceId: string, partnerId: string, deliveryId: string): Promise<Record<string, unknown> | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: deliveryKey(partnerId, deliveryId) }, ConsistentRead: true }),
  );
  return out.Item;
}

export function deliveryItem(practiceId: string, partnerId: string, deliveryId: string, noteId: string, at: string, extra: Record<string, unknown> = {}) {
  return { ...extra, practiceId, sk: deliveryKey(partnerId, deliveryId), entityType: 'PARTNER_DELIVERY', partnerId, deliveryId, noteId, receivedAt: at };
}

/** A delivery that made no note (an unmatched fax), written once: a second write fails its condition. */
export async function putDeliveryOnce(
  practiceId: string,
  partnerId: string,
  deliveryId: string,
  at: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...deliveryItem(practiceId, partnerId, deliveryId, '', at), ...extra },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  );
}

/** What writeDeliveryWithNoteVersion answers: written, or refused with the delivery a racing copy stored (undefined when the note changed instead). */
export type DeliveryVersionWrite = { written: true } | { written: false; raced: Record<string, unknown> | undefined };

/**
 * A delivery that changes an existing note: the delivery item and the note's next version (only
 * over the version it was read at), with any `alsoWrite` items, in one transaction. When a
 * condition fails, answers the delivery a concurrent copy wrote first, if there is one, so the
 * caller can answer the replay; otherwise the note changed meanwhile and the caller decides.
 */
export async function writeDeliveryWithNoteVersion(
  practiceId: string,
  partnerId: string,
  deliveryId: string,
  next: Note,
  seenVersion: number,
  at: string,
  alsoWrite: readonly TransactItem[] = [],
): Promise<DeliveryVersionWrite> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: deliveryItem(practiceId, partnerId, deliveryId, next.noteId, at),
              ConditionExpression: 'attribute_not_exists(sk)',
            },
          },
          putNoteAtVersion(practiceId, next, seenVersion),
          ...alsoWrite,
        ],
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { written: false, raced: await storedDelivery(practiceId, partnerId, deliveryId) };
  }
  return { written: true };
}

export interface ExternalNoteInput {
  noteType: Note['noteType'];
  status: NoteStatus;
  signed: string | null;
  eventTimestamp: string;
  patientId: string;
  data: Note['data'];
  /** The outside system as the note's author. */
  partnerId: string;
  authorName: string;
}

/** A new, read-only note an outside system wrote (its author is the system, not a user). */
export function externalNote(input: ExternalNoteInput, at: string): Note {
  return {
    noteId: randomUUID(),
    noteType: input.noteType,
    status: input.status,
    signed: input.signed,
    eventTimestamp: input.eventTimestamp,
    timestamp: at,
    createdAt: at,
    data: input.data,
    patientId: input.patientId,
    hidden: false,
    files: [],
    author: { userId: `partner:${input.partnerId}`, name: input.authorName, email: '' },
    onBehalfOf: null,
    noteVersion: 1,
    signedBy: null,
  };
}

/**
 * Writes a delivered note with its delivery item (and any `alsoPut` items) in one transaction. When that delivery was
 * written first (a copy racing this one), answers the note it made instead. `deliveryExtra` is kept
 * on the delivery item, for work a replay must still finish (a safety task not yet made).
 */
export async function writeDeliveredNote(
  practiceId: string,
  partnerId: string,
  deliveryId: string,
  note: Note,
  at: string,
  alsoPut: readonly Record<string, unknown>[] = [],
  deliveryExtra: Record<string, unknown> = {},
): Promise<{ noteId: string; replayed: boolean }> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: deliveryItem(practiceId, partnerId, deliveryId, note.noteId, at, deliveryExtra),
              ConditionExpression: 'attribute_not_exists(sk)',
            },
          },
          { Put: { TableName: tableName(), Item: toItem(practiceId, note), ConditionExpression: 'attribute_not_exists(sk)' } },
          // Items the delivery adds beside its note (a chart medication): written with it or not at all.
          ...alsoPut.map((Item) => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(sk)' } })),
        ],
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const raced = await storedDelivery(practiceId, partnerId, deliveryId);
    if (raced) return { noteId: String(raced.noteId), replayed: true };
    throw error;
  }
  return { noteId: note.noteId, replayed: false };
}
