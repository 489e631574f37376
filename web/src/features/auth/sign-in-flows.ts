/**
 * Amplify Auth's sign-in, password and account flows (SRP, challenges, passkeys): the largest part
 * of the sign-in screen's code and none of it needed to show the form. The Authenticator reaches
 * them through web/build-plugins.ts, so they arrive while the user types.
 */
export {
  associateWebAuthnCredential,
  autoSignIn,
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  confirmUserAttribute,
  deleteUser,
  fetchUserAttributes,
  listWebAuthnCredentials,
  resendSignUpCode,
  resetPassword,
  sendUserAttributeVerificationCode,
  signInWithRedirect,
  signUp,
  updatePassword,
} from 'aws-amplify/auth';
import { signIn as amplifySignIn, type SignInInput } from 'aws-amplify/auth';
import { signInAuthFlow } from '../../lib/configure-amplify.js';
import { runtimeConfig } from '../../lib/runtime-config.js';

/**
 * Every sign-in the Authenticator makes uses the deployment's flow, its default service included:
 * Amplify UI's machine keeps its default services when a sign-out reaches it before the form's
 * INIT, and that default would sign in by SRP, which the local user pool does not speak.
 */
export function signIn(input: SignInInput) {
  const authFlowType = input.options?.authFlowType ?? signInAuthFlow(runtimeConfig());
  return amplifySignIn(authFlowType ? { ...input, options: { ...input.options, authFlowType } } : input);
}
