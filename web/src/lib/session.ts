import { signOut } from 'aws-amplify/auth';
import { announceLogout } from './logout-sync.js';

/** Ends the session here and in every other open tab of the app. */
export async function logout(): Promise<void> {
  announceLogout();
  await signOut();
}
