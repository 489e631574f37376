import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import type * as z from '../../../shared/zod.js';
import { ApiError, apiErrorFromResponse, endsSession, NETWORK_ERROR_MESSAGE } from './api-error.js';
import { buildUrl, type ApiQuery } from './api-url.js';
import { takeEarlyAnswer } from './early-answers.js';
import { markMfaRequired, MFA_REQUIRED_REASON } from './mfa-setup.js';
import { isAnyNoteRecording } from './recording-status.js';
import { runtimeConfig } from './runtime-config.js';
import { markSessionExpired } from './session-expiry.js';
import { tokensSettled } from './screen-lock.js';

export { buildUrl } from './api-url.js';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the API root, e.g. `/v1/patients`. */
  path: string;
  query?: ApiQuery;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * A response's zod schema (from shared/), or a loader for it: a first-screen call passes
 * `() => import(…).then((m) => m.Schema)` so the schema arrives with the answer, not with the screen.
 */
export type ResponseSchema<S extends z.ZodMiniType> = S | (() => Promise<S>);

/** What a screen shows when an answer does not match its schema: the data is not shown half-read. */
export const UNREADABLE_RESPONSE_MESSAGE = 'The server sent an answer this screen cannot read. Reload the page and try again.';
export const UNREADABLE_RESPONSE_REASON = 'unreadable_response';

/** The path with its ids left out, so the log names the endpoint and no patient. */
export function pathPattern(path: string): string {
  return path
    .split('?')[0]!
    .split('/')
    .map((segment) => (segment === '' || /^[a-z][a-z-]*$/.test(segment) || /^v\d+$/.test(segment) ? segment : ':id'))
    .join('/');
}

export interface ApiClientDeps {
  apiUrl: () => string;
  idToken: () => Promise<string | undefined>;
  onUnauthorized: (error: ApiError) => Promise<void>;
  fetchImpl: typeof fetch;
  /** Where a schema mismatch is reported: method, path pattern and the failing fields, never their values. */
  logMismatch?: (report: { method: string; path: string; issues: string[] }) => void;
}

async function parsed<S extends z.ZodMiniType>(
  body: unknown,
  source: S | Promise<S>,
  request: ApiRequest,
  status: number,
  deps: ApiClientDeps,
): Promise<z.output<S>> {
  const schema = await source;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const report = {
    method: request.method ?? 'GET',
    path: pathPattern(request.path),
    issues: result.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.code}`),
  };
  (deps.logMismatch ?? ((r) => console.error('API response does not match its schema', r)))(report);
  throw new ApiError(status, UNREADABLE_RESPONSE_MESSAGE, {}, UNREADABLE_RESPONSE_REASON);
}

export function createApiClient(deps: ApiClientDeps) {
  /** Every answer is parsed with its schema: a mismatch is an ApiError with a plain message, never a cast. */
  async function apiRequest<S extends z.ZodMiniType>(request: ApiRequest, schema: ResponseSchema<S>): Promise<z.output<S>> {
    // A schema that loads with its answer is fetched alongside the request, not after the answer.
    const schemaSource = typeof schema === 'function' ? schema() : schema;
    if (schemaSource instanceof Promise) schemaSource.catch(() => undefined);
    const token = await deps.idToken();
    const headers: Record<string, string> = { Accept: 'application/json' };
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
    const text = response.status === 204 ? '' : await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return parsed(body, schemaSource, request, response.status, deps);
  }
  return apiRequest;
}

/**
 * The app's API client: Cognito ID token as bearer; a 401 or a 403
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
  fetchImpl: async (input, init) => {
    const authorization = (init?.headers as Record<string, string> | undefined)?.Authorization;
    const early = init?.method === 'GET' && init.body === undefined ? takeEarlyAnswer(String(input), authorization) : undefined;
    // A failed early ask is asked again here, as any first attempt would be.
    return (await early?.catch(() => undefined)) ?? fetch(input, init);
  },
});
