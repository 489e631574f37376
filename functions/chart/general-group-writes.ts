/** Saving and deleting general-information groups (group-routes.ts loads them with the first save). */
import type { General, GeneralGroupBody, GeneralInput } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ValidationError } from '../lib/errors.js';
import {
  assertChartVersion,
  assertPatientExists,
  createSectionItem,
  deleteSectionItems,
  listSection,
  newIdent,
  putSectionItems,
  updateSectionFields,
  type FieldChanges,
} from '../data/chart/chart-repository.js';
import { buildStored, existingItem, parseOrThrow, planUpdate, splitVersion } from '../core/chart/section-crud.js';
import { GENERAL, ICD10_DERIVED } from '../core/chart/sections.js';
import { GROUP, withItems, type StoredGroup } from './general-groups.js';

function prefixed(error: unknown, prefix: string): never {
  if (error instanceof ValidationError) {
    const fieldErrors = Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [`${prefix}.${k}`, v]));
    throw new ValidationError(`${prefix}.${error.message}`, fieldErrors);
  }
  throw error;
}

/** New items are put; a changed item is one UpdateItem of the fields it changes (items[].version, when sent, must be current). */
async function saveGroup(auth: AuthContext, patientId: string, group: StoredGroup, body: GeneralGroupBody, renamed: boolean) {
  const grouping = { ident: group.ident, name: group.name };
  const created: General[] = [];
  const updates: (FieldChanges & { ident: string })[] = [];
  const audits: { action: 'create' | 'update'; id: string }[] = [];
  for (const [i, entry] of (body.items ?? []).entries()) {
    const { ident, ...fields } = entry;
    const { version, rest: changes } = splitVersion(fields);
    try {
      if (ident) {
        const existing = await existingItem(auth, GENERAL, patientId, ident);
        assertChartVersion(existing, version);
        const plan = await planUpdate(GENERAL, existing, changes, [...ICD10_DERIVED, 'grouping']);
        updates.push({ ident, set: { ...plan.set, grouping }, remove: plan.remove, expectedVersion: version });
        audits.push({ action: 'update', id: ident });
      } else {
        const input = parseOrThrow(GENERAL.input, changes) as GeneralInput;
        const stored = (await buildStored(GENERAL, patientId, input)) as General;
        created.push({ ...stored, grouping });
        audits.push({ action: 'create', id: stored.ident });
      }
    } catch (error) {
      prefixed(error, `items.${i}`);
    }
  }
  if (renamed) {
    for (const item of await listSection(auth.practiceId, patientId, 'general')) {
      if (item.grouping?.ident === group.ident && !updates.some((u) => u.ident === item.ident)) updates.push({ ident: item.ident, set: { grouping } });
    }
  }
  await putSectionItems(
    auth.practiceId,
    created.map((value) => ({ section: 'general' as const, value })),
  );
  for (const u of updates) await updateSectionFields(auth.practiceId, 'general', patientId, u.ident, u, GENERAL.label);
  for (const a of audits) await writeAudit(auth, { action: a.action, entity: GENERAL.entity, entityId: a.id, patientId });
  return withItems(group, await listSection(auth.practiceId, patientId, 'general'));
}

export async function createGeneralGroup(auth: AuthContext, patientId: string, body: GeneralGroupBody) {
  await assertPatientExists(auth.practiceId, patientId);
  const now = new Date().toISOString();
  const group: StoredGroup = { ident: newIdent(), patientId, name: body.name, createdAt: now, updatedAt: now, version: 1 };
  await createSectionItem(auth.practiceId, 'generalGroups', group);
  const out = await saveGroup(auth, patientId, group, body, false);
  await writeAudit(auth, { action: 'create', entity: GROUP.entity, entityId: group.ident, patientId });
  return out;
}

/** PUT: the name (and the version it was read at, when sent) and the items to add or change. */
export async function updateGeneralGroup(auth: AuthContext, patientId: string, groupId: string, body: GeneralGroupBody) {
  const existing = await existingItem(auth, GROUP, patientId, groupId);
  assertChartVersion(existing, body.version);
  const group = await updateSectionFields(
    auth.practiceId,
    'generalGroups',
    patientId,
    groupId,
    { set: { name: body.name }, expectedVersion: body.version },
    GROUP.label,
  );
  const out = await saveGroup(auth, patientId, group, body, body.name !== existing.name);
  await writeAudit(auth, { action: 'update', entity: GROUP.entity, entityId: groupId, patientId });
  return out;
}

/** Deleting a group deletes its items. */
export async function deleteGeneralGroup(auth: AuthContext, patientId: string, groupId: string) {
  await existingItem(auth, GROUP, patientId, groupId);
  const members = (await listSection(auth.practiceId, patientId, 'general')).filter((i) => i.grouping?.ident === groupId);
  await deleteSectionItems(auth.practiceId, [
    ...members.map((i) => ({ patientId, section: 'general' as const, ident: i.ident })),
    { patientId, section: 'generalGroups', ident: groupId },
  ]);
  for (const i of members) await writeAudit(auth, { action: 'delete', entity: GENERAL.entity, entityId: i.ident, patientId });
  await writeAudit(auth, { action: 'delete', entity: GROUP.entity, entityId: groupId, patientId });
}
