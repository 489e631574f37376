import { SUPER_USER_NAME } from '../../../shared/practice/user-constants.js';
import { UnauthorizedError } from '../errors.js';
import { AccessRefusedError, decideAccess, identityFromClaims, type AccessRecord, type Role, type TokenIdentity } from './access-rule.js';

export { parseGroupsClaim } from './groups-claim.js';
export type { Role } from './access-rule.js';
export const ROLES = ['admin', 'provider', 'employee'] as const;

export interface AuthContext {
  practiceId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  groups: string[];
  /** Spec shell §6: acts as admin; see SUPER_USER_GROUP. Absent means false. */
  superUser?: boolean;
}

type Claims = Record<string, string | number | boolean | string[] | undefined>;

/** The verified token's holder, or 401 when the claims name nobody. */
export function tokenIdentity(claims: Claims | undefined): TokenIdentity {
  const identity = claims ? identityFromClaims(claims) : null;
  if (!identity) throw new UnauthorizedError();
  return identity;
}

/**
 * The practice id comes from the stack (PRACTICE_ID) and must equal the token's claim: it is
 * never read from a path, body or query. The role comes from the practice's user record
 * (see decideAccess), which the caller has loaded.
 */
export function authContextFor(identity: TokenIdentity, stackPracticeId: string | undefined, record: AccessRecord): AuthContext {
  if (!stackPracticeId) throw new Error('PRACTICE_ID is not set');
  const role = decideAccess(identity, stackPracticeId, record);
  const { superUser } = identity;
  return {
    practiceId: stackPracticeId,
    userId: identity.sub,
    email: identity.email,
    // What the practice sees in authorship and audit: support staff are not its employees.
    name: superUser ? SUPER_USER_NAME : `${identity.givenName} ${identity.familyName}`.trim() || identity.email,
    role,
    groups: identity.groups,
    superUser,
  };
}

const RANK: Record<Role, number> = { employee: 1, provider: 2, admin: 3 };

export function requireRole(auth: AuthContext, minimum: Role): void {
  if (RANK[auth.role] < RANK[minimum]) throw new AccessRefusedError(403, 'You do not have permission to do this.', 'role');
}
