const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Whether SES accepts `address` as From under the verified `identity`: the exact address for an
 * address identity, any address of the domain for a domain identity (subdomains need their own).
 * The stack's IAM condition on ses:FromAddress follows the same rule.
 */
export function coveredByIdentity(address: string, identity: string): boolean {
  const a = address.trim().toLowerCase();
  const id = identity.trim().toLowerCase();
  if (!a.includes('@')) return false;
  return id.includes('@') ? a === id : domainOf(a) === id;
}

/** The ses:FromAddress pattern the stack allows for an identity. */
export const fromAddressPattern = (identity: string) => (identity.includes('@') ? identity : `*@${identity}`);
