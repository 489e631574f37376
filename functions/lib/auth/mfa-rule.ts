/**
 * Who the practice file's `mfa` rule asks the pool about (docs/api-and-permissions.md):
 * - `admins`: admins (the pool keeps MFA optional; the API enforces it);
 * - `required`: everyone. The pool asks for the code at every sign-in, but a refresh token from
 *   before the practice switched, or a session whose TOTP an admin has just reset, carries no sign
 *   of it, so the API asks the pool too.
 * Free of imports: the request path reads it on every call and loads the pool lookup only when it says so.
 */
export function mfaAsked(role: string, policy: string = process.env.MFA_POLICY ?? 'optional'): boolean {
  return policy === 'required' || (policy === 'admins' && role === 'admin');
}
