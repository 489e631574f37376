import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { ApiError, apiErrorFromResponse, endsSession, NETWORK_ERROR_MESSAGE } from './api-error.js';
import { markMfaRequired, MFA_REQUIRED_REASON } from './mfa-setup.js';
import { isAnyNoteRecording } from './recording-status.js';
import { runtimeConfig } from './runtime-config.js';
import { markSessionExpired } from './session-expiry.js';
import { tokensSettled } from './screen-lock.js';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the API root, e.g. `/v1/patients`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClientDeps {
  apiUrl: () => string;
  idToken: () => Promise<string | undefined>;
  onUnauthorized: (error: ApiError) => Promise<void>;
  fetchImpl: typeof fetch;
  timeZone: () => string;
}

export function buildUrl(apiUrl: string, path: string, query?: ApiRequest['query']): string {
  const url = `${apiUrl.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

export function createApiClient(deps: ApiClientDeps) {
  return async function apiRequest<T>(request: ApiRequest): Promise<T> {
    const token = await deps.idToken();
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Timezone': deps.timeZone() };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await deps.fetchImpl(buildUrl(deps.apiUrl(), request.path, request.query), {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: request.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, NETWORK_ERROR_MESSAGE);
    }

    if (!response.ok) {
      const error = await apiErrorFromResponse(response);
      if (endsSession(error)) await deps.onUnauthorized(error);
      else if (error.status === 403 && error.reason === MFA_REQUIRED_REASON) markMfaRequired(error.message);
      throw error;
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/**
 * The app's API client: Cognito ID token as bearer, the browser's time zone; a 401 or a 403
 * no_access ends the session. A 401 while a visit is recording asks for a new sign-in instead
 * (session-expiry.ts), so the recording is not lost.
 */
export const apiRequest = createApiClient({
  apiUrl: () => runtimeConfig().apiUrl,
  idToken: async () => {
    // The screen lock's password check hides the tokens for a moment: wait rather than send none.
    await tokensSettled();
    return (await fetchAuthSession()).tokens?.idToken?.toString();
  },
  onUnauthorized: async (error) => {
    if (error.status === 401 && isAnyNoteRecording()) {
      markSessionExpired();
      return;
    }
    await signOut();
  },
  fetchImpl: (input, init) => fetch(input, init),
  timeZone: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
});
