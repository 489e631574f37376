/**
 * A new booking's provider: the patient's primary provider when that names one of the practice's
 * providers, else the signed-in user when they are a provider; otherwise none, so the front desk
 * has to choose (never the front-desk user).
 */
export function providerDefault(
  users: readonly { userId: string; permissionGroup?: string; userStatus?: string; name: string }[],
  practitionerName: string | undefined,
  currentUserId: string | undefined,
): string | null {
  const providers = users.filter((u) => u.permissionGroup === 'provider' && u.userStatus !== 'deleted');
  const wanted = practitionerName
    ?.trim()
    .toLowerCase()
    .replace(/^dr\.?\s+/, '');
  const practitioner = wanted ? providers.find((u) => u.name.toLowerCase().replace(/^dr\.?\s+/, '') === wanted) : undefined;
  if (practitioner) return practitioner.userId;
  return providers.some((u) => u.userId === currentUserId) ? (currentUserId ?? null) : null;
}
