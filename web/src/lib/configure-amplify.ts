import { Amplify, type ResourcesConfig } from 'aws-amplify';
import type { RuntimeConfig } from './runtime-config.js';

export function amplifyResources(config: RuntimeConfig): ResourcesConfig {
  return {
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.cognitoEndpoint ? { userPoolEndpoint: absoluteUrl(config.cognitoEndpoint) } : {}),
        loginWith: { email: true },
      },
    },
    API: {
      GraphQL: {
        endpoint: absoluteUrl(config.graphqlUrl),
        region: config.region,
        defaultAuthMode: 'userPool',
      },
    },
  };
}

/**
 * The local user pool has no SRP, so local sign-in uses USER_PASSWORD_AUTH; a deployed pool keeps
 * Amplify's default (SRP).
 */
export function signInAuthFlow(config: RuntimeConfig): 'USER_PASSWORD_AUTH' | undefined {
  return config.local ? 'USER_PASSWORD_AUTH' : undefined;
}

export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure(amplifyResources(config));
}

function absoluteUrl(url: string): string {
  return new URL(url, window.location.href).toString().replace(/\/$/, '');
}
