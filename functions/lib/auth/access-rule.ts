import { SUPER_USER_GROUP } from '../../../shared/practice/user-constants.js';
import { HttpError } from '../errors.js';
import { parseGroupsClaim } from './groups-claim.js';

/**
 * Who may use the practice, decided from the token AND the practice's user record: the record
 * is what an admin changes, so a role change or a removal holds whatever an older token says.
 * The API's auth middleware and the realtime subscription check both apply this one rule.
 */

export type Role = 'admin' | 'provider' | 'employee';

/** Why an attempt was refused: the audit row and the response body carry it. */
export type RefusalReason =
  'other_practice' | 'no_access' | 'user_removed' | 'signed_out' | 'not_a_member' | 'role' | 'not_owner' | 'forbidden' | 'mfa_required';

export const ACCESS_MESSAGES = {
  otherPractice: 'This account does not belong to this practice.',
  noAccess: 'Your account does not have access to this practice.',
  removed: 'Your account has been removed from this practice.',
  signedOut: 'Your session has ended. Please sign in again.',
} as const;

/**
 * A refused attempt. 401 means "this session is over" (removed user, signed-out token): the web
 * signs out. 403 means "this account may not do this"; reason no_access also ends the session.
 */
export class AccessRefusedError extends HttpError {
  constructor(
    statusCode: 401 | 403,
    message: string,
    readonly reason: RefusalReason,
  ) {
    super(statusCode, message, { reason });
  }
}

/** What the token says about its holder (after API Gateway or the realtime server verified it). */
export interface TokenIdentity {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
  groups: string[];
  tokenPracticeId: string | undefined;
  /** Seconds since epoch of the sign-in (auth_time), else of issue (iat); 0 when absent. */
  authTime: number;
  superUser: boolean;
}

/** The practice's record of a user, and when their tokens stopped counting. */
export interface AccessRecord {
  user: { permissionGroup: string; userStatus: string } | null;
  /** Epoch seconds: tokens whose sign-in is at or before this were signed out or revoked. */
  tokensValidAfter: number | null;
}

type Claims = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function seconds(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** Reads the claims both token kinds carry; API Gateway passes them as strings, jose as values. */
export function identityFromClaims(claims: Claims): TokenIdentity | null {
  const sub = text(claims.sub);
  if (!sub) return null;
  const groups = parseGroupsClaim(claims['cognito:groups']);
  const practiceClaim = claims['custom:practiceId'];
  return {
    sub,
    email: text(claims.email),
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
    groups,
    tokenPracticeId: typeof practiceClaim === 'string' && practiceClaim ? practiceClaim : undefined,
    authTime: seconds(claims.auth_time) || seconds(claims.iat),
    superUser: groups.includes(SUPER_USER_GROUP),
  };
}

/** The role this caller acts with, or the refusal. Pure: the caller loads the record. */
export function decideAccess(identity: TokenIdentity, stackPracticeId: string, record: AccessRecord): Role {
  if (identity.tokenPracticeId !== stackPracticeId) throw new AccessRefusedError(403, ACCESS_MESSAGES.otherPractice, 'other_practice');
  const { user } = record;
  // The record's state first: a removal says why, even though it also ended the user's tokens.
  if (user?.userStatus === 'deleted') throw new AccessRefusedError(401, ACCESS_MESSAGES.removed, 'user_removed');
  if (user?.permissionGroup === 'no_access') throw new AccessRefusedError(403, ACCESS_MESSAGES.noAccess, 'no_access');
  if (record.tokensValidAfter !== null && identity.authTime <= record.tokensValidAfter) {
    throw new AccessRefusedError(401, ACCESS_MESSAGES.signedOut, 'signed_out');
  }
  if (user) {
    // Support staff keep admin rights in a practice that also lists them as staff.
    if (identity.superUser) return 'admin';
    if (user.permissionGroup === 'admin' || user.permissionGroup === 'provider') return user.permissionGroup;
    return 'employee';
  }
  // Only super users work without a record (spec shell §6); the pool's no_access still shuts them out.
  if (identity.groups.includes('no_access')) throw new AccessRefusedError(403, ACCESS_MESSAGES.noAccess, 'no_access');
  if (identity.superUser) return 'admin';
  throw new AccessRefusedError(403, ACCESS_MESSAGES.noAccess, 'not_a_member');
}
