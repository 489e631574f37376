/** The API's 403 mfa_required words for each practice rule; the web's set-up screen picks its text by them. */
export const MFA_REQUIRED_MESSAGE = 'Set up two-step sign-in (an authenticator app) before you continue: this practice requires it for administrators.';
export const MFA_REQUIRED_FOR_ALL_MESSAGE = 'Set up two-step sign-in (an authenticator app) before you continue: this practice requires it.';
