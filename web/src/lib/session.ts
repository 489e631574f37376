import { signOut } from 'aws-amplify/auth';
import { apiRequest } from './api-client.js';
import { announceLogout } from './logout-sync.js';

/**
 * Ends the session here and in every other open tab of the app. The API is told first, so every
 * token this user holds stops working now (not when it expires), then Cognito signs out everywhere.
 */
export async function logout(): Promise<void> {
  announceLogout();
  await apiRequest(
    { method: 'POST', path: '/v1/practices/users/me/sign-out' },
    async () => (await import('../../../shared/http/no-content.js')).NoContent,
  ).catch(() => undefined);
  await signOut({ global: true }).catch(() => signOut());
}
