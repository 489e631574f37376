/** Saving and deleting general-information groups (group-routes.ts loads them with the first save). */
import type { General, GeneralGroupBody, GeneralInput } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { assertChartVersion, updateSectionFields } from '../data/chart/chart-repository.js';
import { buildStored, existingItem, parseOrThrow, planUpdate, splitVersion } from '../core/chart/section-crud.js';
import { GENERAL, ICD10_DERIVED } from '../core/chart/sections.js';
import { GROUP, withItems, type StoredGroup } from './general-groups.js';
import {
  createGroupItem,
  deleteGroupWithMembers,
  prefixedError,
  saveMembers,
  type GroupKind,
  type MemberAudit,
  type MemberUpdate,
} from './grouped-section-writes.js';

const GENERAL_GROUP: GroupKind<'general', 'generalGroups'> = { member: { section: 'general', label: GENERAL.label, entity: GENERAL.entity }, group: GROUP };

/** New items are put; a changed item is one UpdateItem of the fields it changes (items[].version, when sent, must be current). */
async function saveGroup(auth: AuthContext, patientId: string, group: StoredGroup, body: GeneralGroupBody, renamed: boolean) {
  const grouping = { ident: group.ident, name: group.name };
  const created: General[] = [];
  const updates: MemberUpdate[] = [];
  const audits: MemberAudit[] = [];
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
      prefixedError(error, `items.${i}`);
    }
  }
  return withItems(group, await saveMembers(auth, GENERAL_GROUP, patientId, group, { created, updates, audits, renamed }));
}

export async function createGeneralGroup(auth: AuthContext, patientId: string, body: GeneralGroupBody) {
  const group = await createGroupItem(auth, patientId, 'generalGroups', body.name);
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
  await deleteGroupWithMembers(auth, GENERAL_GROUP, patientId, groupId);
}
