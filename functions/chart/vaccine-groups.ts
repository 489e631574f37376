import { groupVaccines } from '../../shared/chart/ordering.js';
import type { Vaccine, VaccineGroup } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { assertPatientExists, listSectionWithGroups, type StoredItem } from '../data/chart/chart-repository.js';
import { VACCINES } from '../core/chart/sections.js';

/*
 * A vaccine group (a series) is an item { ident, name } under VACCINE_GROUP; each dose carries
 * grouping { ident, name }. The group's dose list is read from the doses, so deleting or moving a
 * dose never leaves a stale list behind.
 */
export type StoredGroup = StoredItem<'vaccineGroups'>;
export const GROUP = { section: 'vaccineGroups' as const, label: 'Vaccine group', entity: 'vaccine_group' };

export async function listVaccines(auth: AuthContext, patientId: string) {
  await assertPatientExists(auth.practiceId, patientId);
  const { items: vaccines, groups } = await listSectionWithGroups(auth.practiceId, patientId, 'vaccines', 'vaccineGroups');
  await writeAudit(auth, { action: 'list', entity: 'vaccine', patientId, count: vaccines.length });
  return { items: VACCINES.order!(vaccines), groups: groupVaccines(vaccines), storedGroups: groups.map((g) => withItems(g, vaccines)) };
}

export function withItems(group: StoredGroup, vaccines: readonly Vaccine[]): VaccineGroup {
  return { ...group, items: vaccines.filter((v) => v.grouping?.ident === group.ident).map((v) => v.ident) };
}
