import {
  AdminAddUserToGroupCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';

/** The role groups an admin's change moves a user between; super_user is Tidewell's, never the practice's. */
export const ROLE_GROUPS = ['admin', 'provider', 'employee', 'no_access'] as const;
export type RoleGroup = (typeof ROLE_GROUPS)[number];

/** What the practice's user pool does when an admin changes a user (the user record stays the authority). */
export interface IdentityPool {
  /** Leaves the user in exactly this role group, so their next token carries the record's role. */
  setRoleGroup(userId: string, group: RoleGroup): Promise<void>;
  /** Removal: signs the user out on every device and refuses new sign-ins. */
  shutOut(userId: string): Promise<void>;
  /** Restore: new sign-ins work again. */
  letIn(userId: string): Promise<void>;
  /** Turns the user's TOTP off: a practice that requires it has them set it up again at their next sign-in. */
  resetMfa(userId: string): Promise<void>;
}

/** Over the Cognito admin API; the pool accepts the user's sub as Username. */
export class CognitoIdentityPool implements IdentityPool {
  constructor(
    private readonly client: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async setRoleGroup(userId: string, group: RoleGroup): Promise<void> {
    const base = { UserPoolId: this.userPoolId, Username: userId };
    const { Groups } = await this.client.send(new AdminListGroupsForUserCommand(base));
    const current = (Groups ?? []).map((g) => g.GroupName ?? '');
    if (!current.includes(group)) await this.client.send(new AdminAddUserToGroupCommand({ ...base, GroupName: group }));
    for (const other of current) {
      if (other !== group && (ROLE_GROUPS as readonly string[]).includes(other)) {
        await this.client.send(new AdminRemoveUserFromGroupCommand({ ...base, GroupName: other }));
      }
    }
  }

  async shutOut(userId: string): Promise<void> {
    const base = { UserPoolId: this.userPoolId, Username: userId };
    await this.client.send(new AdminDisableUserCommand(base));
    await this.client.send(new AdminUserGlobalSignOutCommand(base));
  }

  async letIn(userId: string): Promise<void> {
    await this.client.send(new AdminEnableUserCommand({ UserPoolId: this.userPoolId, Username: userId }));
  }

  async resetMfa(userId: string): Promise<void> {
    await this.client.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: this.userPoolId,
        Username: userId,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      }),
    );
  }
}

let cached: { key: string; pool: IdentityPool } | undefined;

/**
 * The pool the stack gives the function (USER_POOL_ID, granted by the 'identity' access kind);
 * COGNITO_ENDPOINT points it at the local pool. Throws when missing: an admin's change must not
 * silently skip the pool.
 */
export function identityPoolFromEnv(): IdentityPool {
  const userPoolId = process.env.USER_POOL_ID;
  if (!userPoolId) throw new Error('USER_POOL_ID is not set');
  const endpoint = process.env.COGNITO_ENDPOINT;
  const key = `${userPoolId}|${endpoint ?? ''}`;
  if (cached?.key !== key) {
    const client = new CognitoIdentityProviderClient(
      endpoint ? { endpoint, region: process.env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
    );
    cached = { key, pool: new CognitoIdentityPool(client, userPoolId) };
  }
  return cached.pool;
}
