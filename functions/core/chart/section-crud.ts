import type { z } from '../../../shared/zod.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import { NotFoundError } from '../../lib/errors.js';
import { parseOrThrow } from '../../lib/http/zod-errors.js';
import {
  assertChartVersion,
  assertPatientExists,
  createSectionItem,
  deleteSectionItem,
  getSectionItem,
  itemNotFound,
  listSection,
  newIdent,
  updateSectionFields,
  type ChartSectionName,
  type FieldChanges,
  type StoredItem,
  type StoredMeta,
} from '../../data/chart/chart-repository.js';

/** What differs between the simple sections; everything else (keys, 404s, audit, order) is shared. */
export interface SectionSpec<I extends object, S extends ChartSectionName = ChartSectionName> {
  section: S;
  /** Used in 404 messages: "Allergy not found". */
  label: string;
  /** Audit entity name. */
  entity: string;
  /** The full body rules (create, and the merged result of an update). */
  input: z.ZodMiniType<I, unknown>;
  /** Fields derived on the server from the input (e.g. icd10Code from icd10CodeId). */
  derive?(input: I): Promise<Record<string, unknown>>;
  /** The input fields `derive` reads: an update recomputes derived fields only when one of them changes. */
  deriveFrom?: readonly string[];
  /** The list's order (pinned first, then by the section's date). */
  order?(items: StoredItem<S>[]): StoredItem<S>[];
}

const META_KEYS = new Set(['ident', 'patientId', 'createdAt', 'updatedAt', 'version']);

/** The stored item minus server-set fields: what a partial update is merged over. */
export function editableOf(item: Record<string, unknown>, derivedKeys: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (!META_KEYS.has(k) && !derivedKeys.includes(k) && v !== undefined) out[k] = v;
  return out;
}

export function definedOnly(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** Chart use cases parse merged bodies with the group handler's error shape. */
export { parseOrThrow };

export async function buildStored<I extends object>(spec: SectionSpec<I>, patientId: string, input: I, meta: Partial<StoredMeta> = {}, at = new Date()) {
  const now = at.toISOString();
  const derived = spec.derive ? await spec.derive(input) : {};
  return definedOnly({
    ...input,
    ...derived,
    ident: meta.ident ?? newIdent(),
    patientId,
    createdAt: meta.createdAt ?? now,
    updatedAt: now,
    version: meta.version ?? 1,
  }) as I & StoredMeta;
}

export async function listSectionItems<I extends object, S extends ChartSectionName>(auth: AuthContext, spec: SectionSpec<I, S>, patientId: string) {
  await assertPatientExists(auth.practiceId, patientId);
  const items = await listSection(auth.practiceId, patientId, spec.section);
  await writeAudit(auth, { action: 'list', entity: spec.entity, patientId, count: items.length });
  return spec.order ? spec.order(items) : items;
}

export async function createSectionItemFrom<I extends object>(auth: AuthContext, spec: SectionSpec<I>, patientId: string, input: I) {
  await assertPatientExists(auth.practiceId, patientId);
  const stored = await createSectionItem(auth.practiceId, spec.section, await buildStored(spec, patientId, input));
  await writeAudit(auth, { action: 'create', entity: spec.entity, entityId: stored.ident, patientId });
  return stored;
}

/** Existing item of this patient, or 404 (patient first, so a wrong patient id says so). */
export async function existingItem<S extends ChartSectionName>(
  auth: AuthContext,
  spec: { section: S; label: string },
  patientId: string,
  ident: string,
): Promise<StoredItem<S>> {
  const existing = await getSectionItem(auth.practiceId, patientId, spec.section, ident);
  if (existing) return existing;
  await assertPatientExists(auth.practiceId, patientId);
  throw new NotFoundError(itemNotFound(spec.label));
}

/**
 * What a partial update writes: the fields the caller sent (normalized by the full rules, which
 * run on the stored item merged with the body, so a pin toggle can send `{ pinned: 1 }` alone and
 * a date pair is still checked as a pair), and the derived fields when their source changed.
 * Fields the caller did not send are not written, so a concurrent edit of them survives.
 */
export async function planUpdate<I extends object>(
  spec: SectionSpec<I>,
  existing: Record<string, unknown>,
  changes: Record<string, unknown>,
  /** Stored fields the merge leaves out (derived ones, recomputed; grouping, kept as stored). */
  kept: readonly string[] = [],
): Promise<Pick<FieldChanges, 'set' | 'remove'>> {
  const sent = definedOnly(changes);
  const input = parseOrThrow(spec.input, { ...editableOf(existing, kept), ...sent }) as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) if (key in input) set[key] = input[key];
  const remove: string[] = [];
  if (spec.derive && (spec.deriveFrom ?? []).some((k) => k in sent)) {
    const derived = await spec.derive(input as I);
    for (const [key, value] of Object.entries(derived)) {
      if (value === undefined) remove.push(key);
      else set[key] = value;
    }
  }
  return { set, remove };
}

/** Reads the version the body carries (not an item field) off the changes. */
export function splitVersion(changes: Record<string, unknown>): { version: number | undefined; rest: Record<string, unknown> } {
  const { version, ...rest } = changes;
  return { version: typeof version === 'number' ? version : undefined, rest };
}

/**
 * PUT: a partial update of one item (see planUpdate), written atomically with UpdateItem. With a
 * `version` in the body the write happens only if nobody changed the item since (else 409).
 */
export async function updateSectionItemFrom<I extends object, S extends ChartSectionName>(
  auth: AuthContext,
  spec: SectionSpec<I, S>,
  patientId: string,
  ident: string,
  body: Record<string, unknown>,
  opts: { derived?: readonly string[]; keep?: readonly string[]; existing?: StoredItem<S>; extra?: Record<string, unknown> } = {},
) {
  const { version, rest: changes } = splitVersion(body);
  const existing = opts.existing ?? (await existingItem(auth, spec, patientId, ident));
  assertChartVersion(existing, version);
  const kept = [...(opts.derived ?? []), ...(opts.keep ?? [])];
  const plan = await planUpdate(spec, existing, changes, kept);
  for (const key of opts.keep ?? []) delete plan.set[key];
  Object.assign(plan.set, opts.extra ?? {});
  const stored = await updateSectionFields(auth.practiceId, spec.section, patientId, ident, { ...plan, expectedVersion: version }, spec.label);
  await writeAudit(auth, { action: 'update', entity: spec.entity, entityId: ident, patientId });
  return stored;
}

export async function deleteSectionItemOf(
  auth: AuthContext,
  spec: { section: ChartSectionName; label: string; entity: string },
  patientId: string,
  ident: string,
) {
  await existingItem(auth, spec, patientId, ident);
  await deleteSectionItem(auth.practiceId, patientId, spec.section, ident, spec.label);
  await writeAudit(auth, { action: 'delete', entity: spec.entity, entityId: ident, patientId });
}
