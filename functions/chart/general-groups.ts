import { orderChartItems } from '../../shared/chart/ordering.js';
import type { General, GeneralGroup } from '../../shared/chart/sections.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { assertPatientExists, listSectionWithGroups, type StoredItem } from '../data/chart/chart-repository.js';
import { GENERAL } from '../core/chart/sections.js';

/*
 * A general-information group is an item { ident, name } under GENERAL_GROUP; its items carry
 * grouping { ident, name }, and the group's item list is read from them.
 */
export type StoredGroup = StoredItem<'generalGroups'>;
export const GROUP = { section: 'generalGroups' as const, label: 'General group', entity: 'general_group' };

export function withItems(group: StoredGroup, items: readonly General[]): GeneralGroup {
  return {
    ...group,
    items: orderChartItems(
      items.filter((i) => i.grouping?.ident === group.ident),
      (i) => i.startDate,
    ),
  };
}

export async function listGeneral(auth: AuthContext, patientId: string) {
  await assertPatientExists(auth.practiceId, patientId);
  const { items, groups } = await listSectionWithGroups(auth.practiceId, patientId, 'general', 'generalGroups');
  await writeAudit(auth, { action: 'list', entity: GENERAL.entity, patientId, count: items.length });
  return {
    items: GENERAL.order!(items),
    groups: groups.sort((a, b) => a.name.localeCompare(b.name)).map((g) => withItems(g, items)),
  };
}
