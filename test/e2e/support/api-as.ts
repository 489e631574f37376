import type { APIRequestContext, Page } from '@playwright/test';

export interface ApiSession {
  apiUrl: string;
  token: string;
}

/** The API base URL and the ID token the app itself uses, read from a signed-in page. */
export async function apiSessionOf(page: Page): Promise<ApiSession> {
  return page.evaluate(async () => {
    const config = (await (await fetch('/config.json')).json()) as { apiUrl: string };
    const key = Object.keys(localStorage).find((k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('.idToken'));
    const token = key ? localStorage.getItem(key) : null;
    if (!token) throw new Error('The page holds no ID token: sign in first');
    return { apiUrl: new URL(config.apiUrl, location.href).toString().replace(/\/$/, ''), token };
  });
}

/**
 * Calls the API as that user outside the page (setup a test needs, like an item linked from a
 * note, or restoring a practice flag after a failure, when the page may already be gone).
 */
export async function callApi(
  request: APIRequestContext,
  session: ApiSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await request.fetch(`${session.apiUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status(), json: text ? (JSON.parse(text) as unknown) : null };
}
