import { can, PERMISSIONS, type OwnedResource, type Permission } from '../../../shared/permissions/permissions.js';
import type { AuthContext } from '../auth/auth-context.js';
import { AccessRefusedError } from '../auth/access-rule.js';
import { NotFoundError } from '../errors.js';

/**
 * Enforces a rule of the permissions table (shared/permissions). A rule whose refusal is 404
 * answers as if the resource did not exist (`notFoundMessage`), so its id reveals nothing.
 */
export function requirePermission(auth: AuthContext, permission: Permission, resource?: OwnedResource, notFoundMessage = 'Not found'): void {
  if (can(auth, permission, resource)) return;
  if (PERMISSIONS[permission].refusal === 404) throw new NotFoundError(notFoundMessage);
  // Audited with its reason: the caller's role, or (for an owned resource) not being its owner.
  throw new AccessRefusedError(403, 'You do not have permission to do this.', resource ? 'not_owner' : 'role');
}
