import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';

let client: CognitoIdentityProviderClient | undefined;

/**
 * TOTP counts once verified: Cognito lists SOFTWARE_TOKEN_MFA in UserMFASettingList only after
 * VerifySoftwareToken (and SetUserMFAPreference enabling it), so a started, unfinished set-up does not.
 */
export async function totpEnrolled(userId: string): Promise<boolean> {
  const userPoolId = process.env.USER_POOL_ID;
  if (!userPoolId) throw new Error('USER_POOL_ID is not set');
  const endpoint = process.env.COGNITO_ENDPOINT;
  client ??= new CognitoIdentityProviderClient(
    endpoint ? { endpoint, region: process.env.AWS_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
  );
  const out = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: userId }));
  return (out.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
}
