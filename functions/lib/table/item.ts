import type * as z from '../../../shared/zod.js';

/** A table item as lib-dynamodb reads and writes it. */
export type Item = Record<string, unknown>;

/** The attributes that address an item (table and index keys, entity type), not part of the entity itself. */
const KEY_ATTRIBUTES = ['practiceId', 'sk', 'entityType', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'];

/** The item without its key attributes and the entity's own extra ones (`also`). */
export function withoutKeys(item: Item, also: readonly string[] = []): Item {
  const rest = { ...item };
  for (const name of [...KEY_ATTRIBUTES, ...also]) delete rest[name];
  return rest;
}

/**
 * The item with each attribute it lacks, or holds as null, read as its default: what items written
 * before the attribute existed hold. Null counts as absent, as `??` reads it.
 */
export function withDefaults(item: Item, defaults: Item): Item {
  const filled = { ...item };
  for (const [name, value] of Object.entries(defaults)) filled[name] ??= value;
  return filled;
}

/**
 * The stored item as its entity, parsed with the entity's schema. An item that does not fit names
 * the entity, its sk and the failing fields, never their values (items hold patient data).
 */
export function parseItem<S extends z.ZodMiniType>(entity: string, schema: S, item: Item, also?: readonly string[]): z.output<S> {
  return parseStored(schema, withoutKeys(item, also), `Stored ${entity} item ${String(item.sk)}`);
}

/** A stored value (an item, or a part of one such as a note's data) parsed with its schema; `what` names it in the error. */
export function parseStored<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((i) => i.path.join('.') || '(item)'))].join(', ');
  throw new Error(`${what} does not fit its schema: ${fields}`);
}
