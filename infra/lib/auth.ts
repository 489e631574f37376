import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { SUPER_USER_GROUP } from '../../shared/practice/settings-schema.js';
import type { MfaPolicy } from '../config/practice-config.js';
import { TOKEN_LIFETIMES } from '../config/token-lifetimes.js';

/**
 * Cognito groups = roles. Order matters only for precedence (lower wins when a user is in several).
 * super_user marks Tidewell staff who administer practices (spec shell §6; the API makes them admin).
 */
export const USER_GROUPS = ['admin', 'provider', 'employee', 'no_access', SUPER_USER_GROUP] as const;

/** The custom attribute the ID token carries as `custom:practiceId`; the API compares it with the stack's practice id. */
export const PRACTICE_ID_ATTRIBUTE = 'practiceId';

/**
 * What a function that applies an admin's user change may do to the pool (the 'identity' access
 * kind): move the user between groups, sign them out everywhere, disable and re-enable them, and
 * turn their TOTP off (an admin's MFA reset).
 */
export const IDENTITY_ADMIN_ACTIONS = [
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminSetUserMFAPreference',
] as const;

/**
 * The pool's MFA for the practice file's `mfa`: 'required' makes Cognito demand TOTP set-up
 * (MFA_SETUP) at the next sign-in of every user; 'admins' cannot be said to Cognito (its MFA is
 * pool-wide), so the pool keeps MFA optional and the API enforces it for admins.
 */
export function poolMfa(policy: MfaPolicy): cognito.Mfa {
  return policy === 'required' ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL;
}

/** The practice's user pool: staff accounts are created by an admin, never by self sign-up. */
export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: { retainData: boolean; mfa: MfaPolicy }) {
    super(scope, id);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        givenName: { required: false, mutable: true },
        familyName: { required: false, mutable: true },
      },
      customAttributes: {
        [PRACTICE_ID_ATTRIBUTE]: new cognito.StringAttribute({ minLen: 3, maxLen: 64, mutable: false }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: poolMfa(props.mfa),
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Plus tier: compromised-credential checks and adaptive authentication, enforced.
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    if (props.mfa !== 'required') {
      NagSuppressions.addResourceSuppressions(this.userPool, [
        {
          id: 'AwsSolutions-COG2',
          reason:
            props.mfa === 'admins'
              ? "The practice file's mfa is 'admins': Cognito's MFA setting is pool-wide, so the pool keeps it optional and the API refuses every admin who has not set up TOTP (docs/security.md); threat protection (Plus tier, enforced) covers the other sign-ins."
              : "The practice file's mfa is 'optional': users choose TOTP themselves; threat protection (Plus tier, enforced) blocks risky sign-ins.",
        },
      ]);
    }

    USER_GROUPS.forEach((groupName, precedence) => {
      this.userPool.addGroup(`Group-${groupName}`, { groupName, precedence });
    });

    const attributes = new cognito.ClientAttributes()
      .withStandardAttributes({ email: true, emailVerified: true, givenName: true, familyName: true })
      .withCustomAttributes(PRACTICE_ID_ATTRIBUTE);
    this.client = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // The web signs in with SRP in AWS. USER_PASSWORD_AUTH exists only in the local user pool,
      // which cannot do SRP; the deployed client does not accept plain passwords.
      authFlows: { userSrp: true, userPassword: false, adminUserPassword: false, custom: false },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.minutes(TOKEN_LIFETIMES.idTokenMinutes),
      accessTokenValidity: Duration.minutes(TOKEN_LIFETIMES.accessTokenMinutes),
      refreshTokenValidity: Duration.days(TOKEN_LIFETIMES.refreshTokenDays),
      readAttributes: attributes,
      // practiceId is not writable by users: it decides which practice's data a token may reach.
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ givenName: true, familyName: true }),
    });
  }

  /**
   * With mfa 'admins' (admins) or 'required' (everyone), every API function checks the caller's
   * TOTP enrolment in the pool (AdminGetUser, read only): functions/lib/auth/mfa-rule.ts.
   */
  grantMfaCheck(fn: NodejsFunction, policy: MfaPolicy): void {
    fn.addEnvironment('MFA_POLICY', policy);
    if (policy === 'optional') return;
    this.userPool.grant(fn, 'cognito-idp:AdminGetUser');
    fn.addEnvironment('USER_POOL_ID', this.userPool.userPoolId);
  }

  /** The 'identity' access kind: USER_POOL_ID and IDENTITY_ADMIN_ACTIONS on this pool only. */
  grantUserAdmin(fn: NodejsFunction): void {
    this.userPool.grant(fn, ...IDENTITY_ADMIN_ACTIONS);
    fn.addEnvironment('USER_POOL_ID', this.userPool.userPoolId);
  }
}
