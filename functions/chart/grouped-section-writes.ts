/** What general-information groups and vaccine series share when they save or delete their members. */
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ValidationError } from '../lib/errors.js';
import {
  assertPatientExists,
  createSectionItem,
  deleteSectionItems,
  listSection,
  newIdent,
  putSectionItems,
  updateSectionFields,
  type FieldChanges,
  type StoredItem,
  type StoredMeta,
} from '../data/chart/chart-repository.js';
import { existingItem } from '../core/chart/section-crud.js';

type MemberSection = 'general' | 'vaccines';
type GroupSection = 'generalGroups' | 'vaccineGroups';

export interface GroupKind<M extends MemberSection, G extends GroupSection> {
  member: { section: M; label: string; entity: string };
  group: { section: G; label: string; entity: string };
}

export type MemberUpdate = FieldChanges & { ident: string };
export interface MemberAudit {
  action: 'create' | 'update';
  id: string;
}

/** A member's validation error names its place in the body (`items.2.startDate`), so the form can mark the row. */
export function prefixedError(error: unknown, prefix: string): never {
  if (error instanceof ValidationError) {
    const fieldErrors = Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [`${prefix}.${k}`, v]));
    throw new ValidationError(`${prefix}.${error.message}`, fieldErrors);
  }
  throw error;
}

export async function createGroupItem<G extends GroupSection>(auth: AuthContext, patientId: string, section: G, name: string) {
  await assertPatientExists(auth.practiceId, patientId);
  const now = new Date().toISOString();
  return createSectionItem(auth.practiceId, section, { ident: newIdent(), patientId, name, createdAt: now, updatedAt: now, version: 1 });
}

/**
 * Puts the new members, applies each change as one UpdateItem of its fields, carries a renamed
 * group's name onto the members nobody changed, audits each, and returns the section as it now is.
 */
export async function saveMembers<M extends MemberSection, G extends GroupSection>(
  auth: AuthContext,
  kind: GroupKind<M, G>,
  patientId: string,
  group: { ident: string; name: string },
  changes: { created: StoredMeta[]; updates: MemberUpdate[]; audits: MemberAudit[]; renamed: boolean },
): Promise<StoredItem<M>[]> {
  const { section, label, entity } = kind.member;
  const updates = [...changes.updates];
  if (changes.renamed) {
    const grouping = { ident: group.ident, name: group.name };
    for (const item of await listSection(auth.practiceId, patientId, section)) {
      if (item.grouping?.ident === group.ident && !updates.some((u) => u.ident === item.ident)) updates.push({ ident: item.ident, set: { grouping } });
    }
  }
  await putSectionItems(
    auth.practiceId,
    changes.created.map((value) => ({ section, value })),
  );
  for (const u of updates) await updateSectionFields(auth.practiceId, section, patientId, u.ident, u, label);
  for (const a of changes.audits) await writeAudit(auth, { action: a.action, entity, entityId: a.id, patientId });
  return listSection(auth.practiceId, patientId, section);
}

/** Deleting a group deletes its members, in one batch, and audits each. */
export async function deleteGroupWithMembers<M extends MemberSection, G extends GroupSection>(
  auth: AuthContext,
  kind: GroupKind<M, G>,
  patientId: string,
  groupId: string,
): Promise<void> {
  await existingItem(auth, kind.group, patientId, groupId);
  const members = (await listSection(auth.practiceId, patientId, kind.member.section)).filter((i) => i.grouping?.ident === groupId);
  await deleteSectionItems(auth.practiceId, [
    ...members.map((i) => ({ patientId, section: kind.member.section, ident: i.ident })),
    { patientId, section: kind.group.section, ident: groupId },
  ]);
  for (const i of members) await writeAudit(auth, { action: 'delete', entity: kind.member.entity, entityId: i.ident, patientId });
  await writeAudit(auth, { action: 'delete', entity: kind.group.entity, entityId: groupId, patientId });
}
