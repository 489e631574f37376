import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CHART_MESSAGES } from '../../../shared/chart/constants.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { documentClient } from '../../lib/table/client.js';
import { batchWriteAll } from '../../lib/table/batch.js';
import { tableName } from '../../lib/table/definition.js';
import { queryAll } from '../../lib/table/query-all.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { parseItem, type Item } from '../../lib/table/item.js';
import type * as z from '../../../shared/zod.js';
import { STORED_CHART_ITEMS, type StoredChartItems } from './stored-items.js';

/*
 * Chart items live under their patient in the single table (docs/access-patterns.md):
 *   pk practiceId, sk PATIENT#<patientId>#<SECTION>#<ident>
 * A section list is one Query on begins_with(sk, 'PATIENT#<patientId>#<SECTION>#'). Patient ids
 * and idents never contain '#', so neither another patient's items nor another section's
 * (VACCINE# vs VACCINE_GROUP#) can fall under the prefix. An item id of another patient is
 * simply not under this patient's key, so it answers 404.
 */
export const CHART_SECTION_KEYS = {
  allergies: 'ALLERGY',
  diagnoses: 'DIAGNOSIS',
  medications: 'MEDICATION',
  freeformMedications: 'FREEFORM_MEDICATION',
  vaccines: 'VACCINE',
  vaccineGroups: 'VACCINE_GROUP',
  surgeries: 'SURGERY',
  familyHistory: 'FAMILY_HISTORY',
  socialHistory: 'SOCIAL_HISTORY',
  general: 'GENERAL',
  generalGroups: 'GENERAL_GROUP',
} as const;
export type ChartSectionName = keyof typeof CHART_SECTION_KEYS;

export const chartItemPrefix = (patientId: string, section: ChartSectionName) => `PATIENT#${patientId}#${CHART_SECTION_KEYS[section]}#`;
export const chartItemKey = (patientId: string, section: ChartSectionName, ident: string) => `${chartItemPrefix(patientId, section)}${ident}`;

export const PATIENT_NOT_FOUND = 'Patient not found';
export const itemNotFound = (label: string) => `${label} not found`;

export const newIdent = () => randomUUID();

export interface StoredMeta {
  ident: string;
  patientId: string;
  createdAt: string;
  updatedAt: string;
  /** Optimistic lock, like a note's noteVersion: 1 on create, +1 on every change. */
  version?: number;
}

/** A section's item as its schema reads it (stored-items.ts). */
export type StoredItem<S extends ChartSectionName> = z.output<StoredChartItems[S]>;
const STORED: { [S in ChartSectionName]: z.ZodMiniType<StoredItem<S>> } = STORED_CHART_ITEMS;

/** A stored row as its section's item; a null attribute reads as absent. A row that does not fit throws, naming its sk and fields. */
export function parseChartItem<S extends ChartSectionName>(section: S, row: Item): StoredItem<S> {
  const present = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
  return parseItem(`chart ${section}`, STORED[section], present);
}

/** GetItem projected on the key: the patient must exist for any chart call (archived patients included). */
export async function assertPatientExists(practiceId: string, patientId: string): Promise<void> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: `PATIENT#${patientId}` }, ProjectionExpression: 'sk' }),
  );
  if (!out.Item) throw new NotFoundError(PATIENT_NOT_FOUND);
}

/** Every item whose sort key starts with `prefix`, paged through: one Query. */
function queryPrefix(practiceId: string, prefix: string): Promise<Item[]> {
  return queryAll({
    KeyConditionExpression: 'practiceId = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': practiceId, ':prefix': prefix },
    ConsistentRead: true,
  });
}

export async function listSection<S extends ChartSectionName>(practiceId: string, patientId: string, section: S): Promise<StoredItem<S>[]> {
  return (await queryPrefix(practiceId, chartItemPrefix(patientId, section))).map((item) => parseChartItem(section, item));
}

/**
 * A section with groups (vaccines, general) in one Query: the group key extends the item key
 * (VACCINE_GROUP after VACCINE, GENERAL_GROUP after GENERAL), so `PATIENT#<pid>#VACCINE` holds
 * both; each row goes to the list whose full prefix it has.
 */
export async function listSectionWithGroups<S extends 'vaccines' | 'general', G extends 'vaccineGroups' | 'generalGroups'>(
  practiceId: string,
  patientId: string,
  section: S,
  groupSection: G,
): Promise<{ items: StoredItem<S>[]; groups: StoredItem<G>[] }> {
  const common = `PATIENT#${patientId}#${CHART_SECTION_KEYS[section]}`;
  if (!CHART_SECTION_KEYS[groupSection].startsWith(CHART_SECTION_KEYS[section])) throw new Error(`${groupSection} keys do not extend ${section} keys`);
  const itemPrefix = chartItemPrefix(patientId, section);
  const groupPrefix = chartItemPrefix(patientId, groupSection);
  const items: StoredItem<S>[] = [];
  const groups: StoredItem<G>[] = [];
  for (const row of await queryPrefix(practiceId, common)) {
    const sk = String(row.sk);
    if (sk.startsWith(itemPrefix)) items.push(parseChartItem(section, row));
    else if (sk.startsWith(groupPrefix)) groups.push(parseChartItem(groupSection, row));
  }
  return { items, groups };
}

export async function getSectionItem<S extends ChartSectionName>(
  practiceId: string,
  patientId: string,
  section: S,
  ident: string,
): Promise<StoredItem<S> | null> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: { practiceId, sk: chartItemKey(patientId, section, ident) }, ConsistentRead: true }),
  );
  return out.Item ? parseChartItem(section, out.Item) : null;
}

const toItem = (practiceId: string, section: ChartSectionName, value: StoredMeta): Item => ({
  ...value,
  practiceId,
  sk: chartItemKey(value.patientId, section, value.ident),
  entityType: `CHART_${CHART_SECTION_KEYS[section]}`,
});

/** New item: refuses to overwrite an existing key (a fresh uuid never collides; this guards replays). */
export async function createSectionItem<T extends StoredMeta>(practiceId: string, section: ChartSectionName, value: T): Promise<T> {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: toItem(practiceId, section, value), ConditionExpression: 'attribute_not_exists(sk)' }),
  );
  return value;
}

export interface FieldChanges {
  /** Attributes to set, by name (only what the caller changed, plus server-derived fields). */
  set: Record<string, unknown>;
  /** Attributes to remove (a derived field that no longer applies). */
  remove?: readonly string[];
  /** The version the caller last read; absent: apply to whatever is stored. */
  expectedVersion?: number;
}

/**
 * One UpdateItem: only the named attributes change, updatedAt is stamped and the version bumps,
 * so two users changing different fields of one item both keep their change. With
 * expectedVersion the write happens only if the item is still at that version; otherwise 409
 * with the stored version and item (the form offers Reload / Keep mine), or 404 when it is gone.
 */
export async function updateSectionFields<S extends ChartSectionName>(
  practiceId: string,
  section: S,
  patientId: string,
  ident: string,
  changes: FieldChanges,
  label: string,
  at = new Date(),
): Promise<StoredItem<S>> {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#version': 'version' };
  const values: Record<string, unknown> = { ':updatedAt': at.toISOString(), ':one': 1 };
  const sets = ['#updatedAt = :updatedAt', '#version = if_not_exists(#version, :one) + :one'];
  Object.entries(changes.set).forEach(([name, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  const removes = (changes.remove ?? []).filter((name) => !(name in changes.set) || changes.set[name] === undefined);
  removes.forEach((name, i) => {
    names[`#r${i}`] = name;
  });
  let condition = 'attribute_exists(sk)';
  if (changes.expectedVersion !== undefined) {
    values[':expected'] = changes.expectedVersion;
    // An item stored before versions existed is at version 1.
    condition += changes.expectedVersion === 1 ? ' AND (attribute_not_exists(#version) OR #version = :expected)' : ' AND #version = :expected';
  }
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { practiceId, sk: chartItemKey(patientId, section, ident) },
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return parseChartItem(section, out.Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const still = await getSectionItem(practiceId, patientId, section, ident);
    if (!still) throw new NotFoundError(itemNotFound(label));
    throw new ConflictError(CHART_MESSAGES.staleVersion, { version: still.version, item: still });
  }
}

/** A stale version answers 409 before any work; the write's condition still guards the race. */
export function assertChartVersion(item: StoredMeta, expected: number | undefined): void {
  if (expected === undefined || (item.version ?? 1) === expected) return;
  throw new ConflictError(CHART_MESSAGES.staleVersion, { version: item.version ?? 1, item });
}

export async function deleteSectionItem(practiceId: string, patientId: string, section: ChartSectionName, ident: string, label: string): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { practiceId, sk: chartItemKey(patientId, section, ident) },
        ConditionExpression: 'attribute_exists(sk)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError(itemNotFound(label));
    throw error;
  }
}

/** Several puts (group saves). */
export async function putSectionItems(practiceId: string, entries: { section: ChartSectionName; value: StoredMeta }[]): Promise<void> {
  await batchWriteAll(entries.map((e) => ({ PutRequest: { Item: toItem(practiceId, e.section, e.value) } })));
}

export async function deleteSectionItems(practiceId: string, keys: { patientId: string; section: ChartSectionName; ident: string }[]): Promise<void> {
  await batchWriteAll(keys.map((k) => ({ DeleteRequest: { Key: { practiceId, sk: chartItemKey(k.patientId, k.section, k.ident) } } })));
}
