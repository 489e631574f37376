import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { authorizeSubscriber } from '../../lib/auth/authorize-subscriber.js';

/** What the subscription resolvers send (infra/lib/notifications.ts): the field, its arguments and the caller's verified claims. */
export interface SubscriptionGuardEvent {
  field: string;
  arguments: { practiceId?: string };
  claims: Record<string, unknown>;
  sourceIp?: string;
}

let cognito: CognitoIdentityProviderClient | undefined;
const practiceCache = new Map<string, { practiceId: string | undefined; at: number }>();

/**
 * Amplify subscribes with the ACCESS token, which carries no custom attributes: the user's
 * practice comes from the pool (cached a minute: a user's practice never changes).
 */
async function practiceOfUser(username: string): Promise<string | undefined> {
  const hit = practiceCache.get(username);
  if (hit && Date.now() - hit.at < 60_000) return hit.practiceId;
  cognito ??= new CognitoIdentityProviderClient({});
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: process.env.USER_POOL_ID, Username: username }));
  const practiceId = user.UserAttributes?.find((a) => a.Name === 'custom:practiceId')?.Value;
  practiceCache.set(username, { practiceId, at: Date.now() });
  return practiceId;
}

/**
 * The subscription resolvers' check: the API's access rule (user record, sign-out time, practice)
 * and the subscription's practiceId argument must be this practice. Throwing refuses the
 * subscription (the resolver answers Unauthorized); a refusal is audited.
 */
export async function handler(event: SubscriptionGuardEvent): Promise<{ allowed: true }> {
  const practiceId = process.env.PRACTICE_ID;
  if (!practiceId) throw new Error('PRACTICE_ID is not set');
  const claims = { ...event.claims };
  if (claims.token_use === 'access' && typeof claims.username === 'string') claims['custom:practiceId'] = await practiceOfUser(claims.username);
  await authorizeSubscriber(claims, practiceId, { route: `Subscription.${event.field}`, audit: true, sourceIp: event.sourceIp });
  if (event.arguments?.practiceId !== practiceId) throw new Error(`Not Authorized to access ${event.field} on type Subscription`);
  return { allowed: true };
}
