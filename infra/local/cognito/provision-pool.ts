import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  SetUserPoolMfaConfigCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { SUPER_USER_GROUP } from '../../../shared/practice/settings-schema.js';
import type { MfaPolicy } from '../../config/practice-config.js';
import { TOKEN_LIFETIMES } from '../../config/token-lifetimes.js';

/** The stack's web client settings that the local pool can hold (infra/lib/auth.ts). */
const CLIENT_SETTINGS = {
  IdTokenValidity: TOKEN_LIFETIMES.idTokenMinutes,
  AccessTokenValidity: TOKEN_LIFETIMES.accessTokenMinutes,
  RefreshTokenValidity: TOKEN_LIFETIMES.refreshTokenDays,
  TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
  PreventUserExistenceErrors: 'ENABLED',
  EnableTokenRevocation: true,
} as const;

export const USER_GROUPS = ['admin', 'provider', 'employee', 'no_access', SUPER_USER_GROUP] as const;
export type UserGroup = (typeof USER_GROUPS)[number];

export interface PoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

export interface PoolUser {
  email: string;
  firstName: string;
  lastName: string;
  group: UserGroup;
  practiceId: string;
  password: string;
}

export function cognitoAdminClient(endpoint: string, region: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

function errorName(e: unknown): string {
  return (e as { name?: string; __type?: string }).name ?? '';
}

/**
 * The stack's pool MFA for the practice's policy (infra/lib/auth.ts poolMfa): TOTP only, on for
 * 'required' (a user without TOTP gets the MFA_SETUP challenge at sign-in), optional for
 * 'optional' and 'admins' (the API enforces admins).
 */
export async function applyPoolMfa(client: CognitoIdentityProviderClient, userPoolId: string, policy: MfaPolicy): Promise<void> {
  await client.send(
    new SetUserPoolMfaConfigCommand({
      UserPoolId: userPoolId,
      MfaConfiguration: policy === 'required' ? 'ON' : 'OPTIONAL',
      SoftwareTokenMfaConfiguration: { Enabled: true },
    }),
  );
}

/** Reuses the pool and client remembered from an earlier start when they still exist. */
export async function provisionUserPool(client: CognitoIdentityProviderClient, known: Partial<PoolIds>, poolName: string): Promise<PoolIds> {
  let userPoolId = known.userPoolId;
  if (userPoolId) {
    try {
      await client.send(new DescribeUserPoolCommand({ UserPoolId: userPoolId }));
    } catch {
      userPoolId = undefined;
    }
  }
  if (!userPoolId) {
    const { UserPool } = await client.send(
      new CreateUserPoolCommand({
        PoolName: poolName,
        UsernameAttributes: ['email'],
        Schema: [{ Name: 'practiceId', AttributeDataType: 'String', Mutable: false }],
      }),
    );
    userPoolId = UserPool!.Id!;
  }

  let userPoolClientId = userPoolId === known.userPoolId ? known.userPoolClientId : undefined;
  if (userPoolClientId) {
    try {
      await client.send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: userPoolClientId }));
    } catch {
      userPoolClientId = undefined;
    }
  }
  if (!userPoolClientId) {
    const { UserPoolClient } = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: 'web',
        GenerateSecret: false,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH'],
        ...CLIENT_SETTINGS,
      }),
    );
    userPoolClientId = UserPoolClient!.ClientId!;
  } else {
    // A data folder from before the lifetimes were set keeps its client; bring it in line.
    await client.send(new UpdateUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: userPoolClientId, ...CLIENT_SETTINGS }));
  }

  for (const group of USER_GROUPS) {
    try {
      await client.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: group }));
    } catch (e) {
      if (errorName(e) !== 'GroupExistsException') throw e;
    }
  }
  return { userPoolId, userPoolClientId };
}

/**
 * Creates the user (permanent password, group) unless it exists; returns its sub either way. An
 * existing user left in no group (a data folder from before groups survived restarts) gets its group back.
 */
export async function ensurePoolUser(client: CognitoIdentityProviderClient, userPoolId: string, user: PoolUser): Promise<string> {
  try {
    const sub = subOf(await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: user.email })));
    const { Groups } = await client.send(new AdminListGroupsForUserCommand({ UserPoolId: userPoolId, Username: user.email }));
    if (!Groups?.length) await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: user.email, GroupName: user.group }));
    return sub;
  } catch (e) {
    if (errorName(e) !== 'UserNotFoundException') throw e;
  }
  const { User } = await client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: user.email,
      MessageAction: 'SUPPRESS',
      TemporaryPassword: user.password,
      UserAttributes: [
        { Name: 'email', Value: user.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'given_name', Value: user.firstName },
        { Name: 'family_name', Value: user.lastName },
        { Name: 'custom:practiceId', Value: user.practiceId },
      ],
    }),
  );
  await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: user.email, Password: user.password, Permanent: true }));
  await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: user.email, GroupName: user.group }));
  return subOf({ UserAttributes: User?.Attributes, Username: User?.Username });
}

function subOf(user: { UserAttributes?: { Name?: string; Value?: string }[]; Username?: string }): string {
  const sub = user.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
  if (!sub) throw new Error('User has no sub attribute');
  return sub;
}
