/**
 * Who may do what: the one table the API enforces (route guards and use-case checks) and the web
 * reads to hide what the signed-in user cannot do. Each rule's `says` is the sentence the README
 * shows. no_access users and other practices are refused before any of this (the auth middleware).
 */
export const PERMISSION_ROLES = ['admin', 'provider', 'employee'] as const;
export type PermissionRole = (typeof PERMISSION_ROLES)[number];

const EVERYONE = PERMISSION_ROLES;

/**
 * Ownership on top of the role: `assignee` (the resource's assigned user only), `author`
 * (the note's author or the prescriber it was written on behalf of); `adminOverrides` lets an
 * admin act on anyone's.
 */
export type Ownership = 'assignee' | 'author';

export interface PermissionRule {
  roles: readonly PermissionRole[];
  owner?: Ownership;
  adminOverrides?: boolean;
  /** What a user who may not gets: 403, or 404 when the resource is private to its owner. */
  refusal: 403 | 404;
  says: string;
}

export const PERMISSIONS = {
  'practice.settings.change': {
    roles: ['admin'],
    refusal: 403,
    says: 'Practice details, users (role, status) and feature flags are changed by admins only; everyone reads them.',
  },
  'patient.archive': { roles: ['admin', 'provider'], refusal: 403, says: 'A patient is archived by a provider or an admin.' },
  'patient.accessHistory.read': {
    roles: ['admin'],
    refusal: 403,
    says: "A patient's access history (who read or changed the patient's data, when, what and from where) is read by admins only.",
  },
  'chart.edit': { roles: EVERYONE, refusal: 403, says: 'Every role reads and edits chart items; a stale edit is refused (409) rather than overwriting.' },
  'chart.fhir': {
    roles: ['admin', 'provider'],
    refusal: 403,
    says: "A patient's chart is exported to FHIR, or a FHIR bundle imported into it, by a provider or an admin; each export and import is in the audit trail.",
  },
  'practice.fhir.export': {
    roles: ['admin'],
    refusal: 403,
    says: "The whole practice's data is exported to FHIR (Bulk Data NDJSON) by admins only, from Settings; every export is in the audit trail.",
  },
  'practice.fhir.import': {
    roles: ['admin'],
    refusal: 403,
    says: "A practice is rebuilt from a whole-practice FHIR export (its own or another system's) by admins only, through the practice CLI; every patient brought in is in the audit trail.",
  },
  'note.sign': { roles: EVERYONE, refusal: 403, says: 'Every role writes and signs notes; the signer becomes the author.' },
  'note.signed.change': {
    roles: EVERYONE,
    owner: 'author',
    adminOverrides: true,
    refusal: 403,
    says: 'A signed note is changed (update-signed-note) only by its author, the prescriber it was written on behalf of, or an admin; anyone may addend it.',
  },
  'note.signed.delete': {
    roles: EVERYONE,
    owner: 'author',
    adminOverrides: true,
    refusal: 403,
    says: 'A signed note is deleted only by its author, the prescriber it was written on behalf of, or an admin. A deleted note is kept (status DELETED, with its audit entries) and left out of listings.',
  },
  'note.restore': {
    roles: ['admin'],
    refusal: 403,
    says: 'An admin restores a deleted note with POST /v1/notes/{noteId}/restore; it returns to the status it had.',
  },
  'lab.order': {
    roles: ['admin', 'provider'],
    refusal: 403,
    says: 'Labs are ordered by providers and admins, for an ordering provider the lab provider knows by NPI; every role reads, trends and prints the results.',
  },
  'lab.review': {
    roles: ['admin', 'provider'],
    owner: 'assignee',
    adminOverrides: true,
    refusal: 403,
    says: 'A lab result is signed off by its ordering provider or an admin; each sign-off is audited.',
  },
  'sms.send': {
    roles: EVERYONE,
    refusal: 403,
    says: "Every role reads the practice's text conversations and texts patients from the practice's numbers; each read and send is in the patient's access history.",
  },
  'scheduledSms.change': {
    roles: EVERYONE,
    owner: 'author',
    adminOverrides: true,
    refusal: 403,
    says: 'A scheduled text is rescheduled or cancelled only by the user who scheduled it or an admin; everyone sees the scheduled texts.',
  },
  'files.drive': {
    roles: EVERYONE,
    refusal: 403,
    says: 'Every role browses the practice drive, uploads to it, makes folders and deletes its files (never a folder); each call is in the audit trail.',
  },
  'reminder.manage': {
    roles: EVERYONE,
    owner: 'assignee',
    refusal: 404,
    says: 'A reminder belongs to the user it is assigned to: only they see, change or delete it; for anyone else (admins too) it does not exist (404).',
  },
} as const satisfies Record<string, PermissionRule>;

export type Permission = keyof typeof PERMISSIONS;

export interface Actor {
  role: PermissionRole | 'no_access';
  userId: string;
}

/** The owners of a resource, as the rule's ownership reads them. */
export interface OwnedResource {
  assigned?: string | null;
  authorUserId?: string | null;
  onBehalfOf?: string | null;
}

function owns(actor: Actor, owner: Ownership, resource: OwnedResource): boolean {
  if (owner === 'assignee') return !!resource.assigned && resource.assigned === actor.userId;
  return (!!resource.authorUserId && resource.authorUserId === actor.userId) || (!!resource.onBehalfOf && resource.onBehalfOf === actor.userId);
}

/** May `actor` do `permission` (on `resource`, for rules with an owner)? Without a resource only the role is checked. */
export function can(actor: Actor | null | undefined, permission: Permission, resource?: OwnedResource): boolean {
  if (!actor || actor.role === 'no_access') return false;
  const rule: PermissionRule = PERMISSIONS[permission];
  if (!rule.roles.includes(actor.role)) return false;
  if (!rule.owner || !resource) return true;
  if (rule.adminOverrides && actor.role === 'admin') return true;
  return owns(actor, rule.owner, resource);
}
