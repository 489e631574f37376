/** Saving and deleting vaccine series (group-routes.ts loads them with the first save). */
import type { Vaccine, VaccineGroupBody, VaccineInput } from '../../shared/chart/sections.js';
import { CHART_MESSAGES } from '../../shared/chart/constants.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ValidationError } from '../lib/errors.js';
import { assertChartVersion, updateSectionFields } from '../data/chart/chart-repository.js';
import { buildStored, existingItem, planUpdate, splitVersion } from '../core/chart/section-crud.js';
import { VACCINES } from '../core/chart/sections.js';
import { GROUP, withItems, type StoredGroup } from './vaccine-groups.js';
import {
  createGroupItem,
  deleteGroupWithMembers,
  prefixedError,
  saveMembers,
  type GroupKind,
  type MemberAudit,
  type MemberUpdate,
} from './grouped-section-writes.js';

const SERIES: GroupKind<'vaccines', 'vaccineGroups'> = { member: { section: 'vaccines', label: VACCINES.label, entity: 'vaccine' }, group: GROUP };

/**
 * New doses are put (fresh ids); every other dose change is one UpdateItem of the fields it
 * changes (a dose edit may carry the version it was read at), so a concurrent edit of another
 * field or another dose is never overwritten.
 */
async function applyGroupChanges(auth: AuthContext, patientId: string, group: StoredGroup, body: VaccineGroupBody, renamed: boolean) {
  const grouping = { ident: group.ident, name: group.name };
  const created: Vaccine[] = [];
  const audits: MemberAudit[] = [];
  for (const input of body.create ?? []) {
    const stored = (await buildStored(VACCINES, patientId, input as VaccineInput)) as Vaccine;
    created.push({ ...stored, grouping });
    audits.push({ action: 'create', id: stored.ident });
  }
  const touched = new Set<string>();
  const updates: MemberUpdate[] = [];
  for (const [i, entry] of (body.update ?? []).entries()) {
    const existing = await existingItem(auth, VACCINES, patientId, entry.ident);
    const { ident: _ident, ...fields } = entry;
    const { version, rest: changes } = splitVersion(fields);
    assertChartVersion(existing, version);
    let plan: Awaited<ReturnType<typeof planUpdate>>;
    try {
      plan = await planUpdate(VACCINES, existing, changes, ['grouping']);
    } catch (error) {
      prefixedError(error, `update.${i}`);
    }
    updates.push({ ident: entry.ident, set: { ...plan.set, grouping }, remove: plan.remove, expectedVersion: version });
    touched.add(entry.ident);
    audits.push({ action: 'update', id: entry.ident });
  }
  for (const ident of body.group?.items ?? []) {
    if (touched.has(ident)) continue;
    await existingItem(auth, VACCINES, patientId, ident);
    updates.push({ ident, set: { grouping } });
    touched.add(ident);
    audits.push({ action: 'update', id: ident });
  }
  const section = await saveMembers(auth, SERIES, patientId, group, { created, updates, audits, renamed });
  const members = section.filter((v) => v.grouping?.ident === group.ident);
  return { group: withItems(group, members), items: VACCINES.order!(members) };
}

export async function createVaccineGroup(auth: AuthContext, patientId: string, body: VaccineGroupBody) {
  const group = await createGroupItem(auth, patientId, 'vaccineGroups', body.group?.name || body.create?.[0]?.name || 'Vaccines');
  const out = await applyGroupChanges(auth, patientId, group, body, false);
  await writeAudit(auth, { action: 'create', entity: GROUP.entity, entityId: group.ident, patientId });
  return out;
}

/**
 * PUT: rename (a group with an id needs a name; group.version, when sent, must be current), add
 * doses (create[]), change doses (update[]; pin-all sends only update[]).
 */
export async function updateVaccineGroup(auth: AuthContext, patientId: string, groupId: string, body: VaccineGroupBody) {
  const existing = await existingItem(auth, GROUP, patientId, groupId);
  if (body.group && body.group.name !== undefined && body.group.name === '') {
    throw new ValidationError(`group.name: ${CHART_MESSAGES.groupNameInvalid}`, { 'group.name': CHART_MESSAGES.groupNameInvalid });
  }
  assertChartVersion(existing, body.group?.version);
  const name = body.group?.name || existing.name;
  const group =
    name !== existing.name || body.group?.version !== undefined
      ? await updateSectionFields(auth.practiceId, 'vaccineGroups', patientId, groupId, { set: { name }, expectedVersion: body.group?.version }, GROUP.label)
      : existing;
  const out = await applyGroupChanges(auth, patientId, group, body, name !== existing.name);
  await writeAudit(auth, { action: 'update', entity: GROUP.entity, entityId: groupId, patientId });
  return out;
}

/** Deleting a series deletes its doses. */
export async function deleteVaccineGroup(auth: AuthContext, patientId: string, groupId: string) {
  await deleteGroupWithMembers(auth, SERIES, patientId, groupId);
}
