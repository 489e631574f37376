import { Amplify, type ResourcesConfig } from 'aws-amplify';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { defaultStorage, type KeyValueStorageInterface } from 'aws-amplify/utils';
import type { RuntimeConfig } from './runtime-config.js';
import { isVerifyingPassword, tokensStored } from './screen-lock.js';

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

/**
 * Amplify's own storage (localStorage), except that while the screen lock checks a password the
 * tokens read as absent: Amplify signs in only over no session, and the lock's sign-in must
 * check the password without ending the session it protects (screen-lock.ts). Once a right
 * password's tokens are written they read as stored again, since signIn itself reads them back
 * before it returns (hidden, it failed with "needs to be authenticated" and never unlocked).
 */
export const tokenStorage: KeyValueStorageInterface = {
  setItem: (key, value) => {
    tokensStored();
    return defaultStorage.setItem(key, value);
  },
  getItem: (key) => (isVerifyingPassword() ? Promise.resolve(null) : defaultStorage.getItem(key)),
  removeItem: (key) => defaultStorage.removeItem(key),
  clear: () => defaultStorage.clear(),
};

export function configureAmplify(config: RuntimeConfig): void {
  Amplify.configure(amplifyResources(config));
  cognitoUserPoolsTokenProvider.setKeyValueStorage(withListener(tokenStorage));
}

/** Keeps Amplify's cross-tab sign-in/sign-out notices, which hang on the storage's listener. */
function withListener(storage: KeyValueStorageInterface): KeyValueStorageInterface {
  const source = defaultStorage as KeyValueStorageInterface & { addListener?: (...args: unknown[]) => unknown };
  return source.addListener ? Object.assign(storage, { addListener: source.addListener.bind(source) }) : storage;
}

function absoluteUrl(url: string): string {
  return new URL(url, window.location.href).toString().replace(/\/$/, '');
}
