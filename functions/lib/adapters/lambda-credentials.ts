/**
 * Stands in for `@aws-sdk/credential-provider-node` inside the Lambda bundles (an esbuild alias in
 * infra/lib/lambda-bundling.ts). Lambda always hands a function its role's credentials in the
 * environment, so the SDK's full chain (SSO, profiles, web identity, IMDS and the nested STS/SSO
 * clients, ~90 KB minified) would only cost cold-start time there. Local runs and tests are not
 * bundled and keep the SDK's own chain.
 */
/** The SDK's AwsCredentialIdentity shape. */
export interface LambdaCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export class MissingLambdaCredentialsError extends Error {
  constructor() {
    super('No AWS credentials in the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (Lambda sets them from the function role)');
    this.name = 'CredentialsProviderError';
  }
}

/** Same signature as the SDK's defaultProvider; reads the environment each time it is asked. */
export function defaultProvider(_init: unknown = {}): () => Promise<LambdaCredentials> {
  return async () => {
    const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_CREDENTIAL_EXPIRATION } = process.env;
    if (!AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) throw new MissingLambdaCredentialsError();
    return {
      accessKeyId: AWS_ACCESS_KEY_ID,
      secretAccessKey: AWS_SECRET_ACCESS_KEY,
      ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
      ...(AWS_CREDENTIAL_EXPIRATION ? { expiration: new Date(AWS_CREDENTIAL_EXPIRATION) } : {}),
    };
  };
}
