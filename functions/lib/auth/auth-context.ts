import { SUPER_USER_GROUP, SUPER_USER_NAME } from '../../../shared/practice/settings-schema.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';

export const ROLES = ['admin', 'provider', 'employee'] as const;
export type Role = (typeof ROLES)[number];

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

/**
 * API Gateway's HTTP API JWT authorizer passes array claims flattened as "[a b]";
 * a token decoded elsewhere carries a real array. Accept both.
 */
export function parseGroupsClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.trim() === '') return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[') && trimmed.endsWith(']')) {
    const inner = trimmed.slice(1, -1).trim();
    if (inner.startsWith('"')) {
      try {
        return (JSON.parse(trimmed) as unknown[]).map(String);
      } catch {
        /* fall through to whitespace split */
      }
    }
    return inner.split(/[\s,]+/).filter(Boolean);
  }
  return trimmed.split(/[\s,]+/).filter(Boolean);
}

/**
 * admin over provider over employee; employee is the default when no known group is present.
 * A super user acts as admin; no_access still refuses, so an account can be shut out in one place.
 */
export function roleFromGroups(groups: string[]): Role | 'no_access' {
  if (groups.includes('no_access')) return 'no_access';
  if (groups.includes(SUPER_USER_GROUP) || groups.includes('admin')) return 'admin';
  if (groups.includes('provider')) return 'provider';
  return 'employee';
}

/**
 * The practice id comes from the stack (PRACTICE_ID) and must equal the token's claim:
 * it is never read from a path, body or query.
 */
export function authContextFromClaims(claims: Claims | undefined, stackPracticeId: string | undefined): AuthContext {
  if (!claims || !claims.sub) throw new UnauthorizedError();
  if (!stackPracticeId) throw new Error('PRACTICE_ID is not set');
  const tokenPractice = claims['custom:practiceId'];
  if (tokenPractice !== stackPracticeId) throw new ForbiddenError('This account does not belong to this practice.');
  const groups = parseGroupsClaim(claims['cognito:groups']);
  const role = roleFromGroups(groups);
  if (role === 'no_access') throw new ForbiddenError('Your account does not have access to this practice.');
  const given = typeof claims.given_name === 'string' ? claims.given_name : '';
  const family = typeof claims.family_name === 'string' ? claims.family_name : '';
  const email = typeof claims.email === 'string' ? claims.email : '';
  const superUser = groups.includes(SUPER_USER_GROUP);
  return {
    practiceId: stackPracticeId,
    userId: String(claims.sub),
    email,
    // What the practice sees in authorship and audit: support staff are not its employees.
    name: superUser ? SUPER_USER_NAME : `${given} ${family}`.trim() || email,
    role,
    groups,
    superUser,
  };
}

const RANK: Record<Role, number> = { employee: 1, provider: 2, admin: 3 };

export function requireRole(auth: AuthContext, minimum: Role): void {
  if (RANK[auth.role] < RANK[minimum]) throw new ForbiddenError('You do not have permission to do this.');
}
