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
  signIn,
  signInWithRedirect,
  signUp,
  updatePassword,
} from 'aws-amplify/auth';
