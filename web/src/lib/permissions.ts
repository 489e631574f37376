import { can, type OwnedResource, type Permission } from '../../../shared/permissions/permissions.js';
import { useCurrentUser, type PracticeUser } from './practice.js';

/** The signed-in user as the permissions table sees them (a super user acts as admin). */
export function actorOf(user: PracticeUser | undefined) {
  if (!user) return null;
  return { role: user.superUser ? ('admin' as const) : user.permissionGroup, userId: user.userId };
}

/**
 * Whether the signed-in user may do `permission` (on `resource`): the web hides what the API
 * would refuse, from the same table the API enforces. False until the user is known.
 */
export function useCan(permission: Permission, resource?: OwnedResource): boolean {
  const me = useCurrentUser();
  return can(actorOf(me.data), permission, resource);
}
