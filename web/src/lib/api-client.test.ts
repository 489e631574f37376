import { describe, expect, it, vi } from 'vitest';
import * as z from '../../../shared/zod.js';
import { buildUrl, createApiClient, pathPattern, UNREADABLE_RESPONSE_MESSAGE, type ApiClientDeps } from './api-client.js';
import { ApiError } from './api-error.js';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const Anything = z.unknown();
const Created = z.object({ id: z.string() });

function client(fetchImpl: ApiClientDeps['fetchImpl'], overrides: Partial<ApiClientDeps> = {}) {
  const onUnauthorized = vi.fn(async () => undefined);
  const request = createApiClient({
    apiUrl: () => 'http://localhost:3000/api/',
    idToken: async () => 'id-token-123',
    onUnauthorized,
    fetchImpl,
    ...overrides,
  });
  return { request, onUnauthorized };
}

describe('buildUrl', () => {
  it('joins the API root and path and drops empty query values', () => {
    expect(buildUrl('http://h/api/', '/v1/patients', { limit: 100, offset: 0, q: '', status: undefined })).toBe('http://h/api/v1/patients?limit=100&offset=0');
    expect(buildUrl('http://h/api', 'v1/x', { q: '(555) 01' })).toBe('http://h/api/v1/x?q=%28555%29+01');
  });
});

describe('createApiClient', () => {
  it('sends the ID token as bearer, and JSON', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(201, { id: 'p1' }));
    const { request } = client(fetchImpl);

    const result = await request({ method: 'POST', path: '/v1/patients', body: { firstName: 'Ana' } }, Created);

    expect(result).toEqual({ id: 'p1' });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://localhost:3000/api/v1/patients');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"firstName":"Ana"}');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer id-token-123',
      'Content-Type': 'application/json',
    });
  });

  it('starts loading a lazily loaded schema while the request is in flight, not after the answer', async () => {
    const order: string[] = [];
    const { request } = client(async () => {
      order.push('request sent');
      await Promise.resolve();
      order.push('answer in');
      return jsonResponse(200, { id: 'p1' });
    });

    const result = await request({ path: '/v1/patients/p1' }, async () => {
      order.push('schema requested');
      return Created;
    });

    expect(result).toEqual({ id: 'p1' });
    expect(order.indexOf('schema requested')).toBeLessThan(order.indexOf('answer in'));
  });

  it('surfaces a 400 as an ApiError with the message and field errors', async () => {
    const body = { message: 'dob: Date of birth cannot be after today', fieldErrors: { dob: 'Date of birth cannot be after today' } };
    const { request, onUnauthorized } = client(async () => jsonResponse(400, body));

    const error = await request({ path: '/v1/patients' }, Anything).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: body.message, fieldErrors: body.fieldErrors });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('signs out on a 401', async () => {
    const { request, onUnauthorized } = client(async () => jsonResponse(401, { message: 'Unauthorized' }));

    await expect(request({ path: '/v1/practices/metadata' }, Anything)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('signs out when an admin removed the user (403 no_access), but not on a 403 for a forbidden action', async () => {
    const { request, onUnauthorized } = client(async () =>
      jsonResponse(403, { message: 'Your account does not have access to this practice.', reason: 'no_access' }),
    );
    await expect(request({ path: '/v1/patients' }, Anything)).rejects.toMatchObject({ status: 403, reason: 'no_access' });
    expect(onUnauthorized).toHaveBeenCalledOnce();

    const { request: forbidden, onUnauthorized: notCalled } = client(async () =>
      jsonResponse(403, { message: 'You do not have permission to do this.', reason: 'role' }),
    );
    await expect(forbidden({ path: '/v1/practices/feature-gates', method: 'PUT' }, Anything)).rejects.toMatchObject({ status: 403 });
    expect(notCalled).not.toHaveBeenCalled();
  });

  it("uses the spec's message when the response has no usable body or the network fails", async () => {
    const { request: broken } = client(async () => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(broken({ path: '/v1/patients' }, Anything)).rejects.toMatchObject({ status: 502, message: 'Network response was not ok' });

    const { request: offline } = client(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline({ path: '/v1/patients' }, Anything)).rejects.toMatchObject({ status: 0, message: 'Network response was not ok' });
  });

  it('omits the Authorization header when there is no session', async () => {
    const fetchImpl = vi.fn(async () => jsonResponse(200, {}));
    const { request } = client(fetchImpl, { idToken: async () => undefined });
    await request({ path: '/v1/x' }, Anything);
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  describe('with a response schema', () => {
    const Patient = z.object({ id: z.string(), firstName: z.string(), dob: z.optional(z.string()) });

    it('answers with the parsed body: fields the schema does not name are dropped', async () => {
      const { request } = client(async () => jsonResponse(200, { id: 'p1', firstName: 'Ana', internal: 'x' }));
      await expect(request({ path: '/v1/patients/p1' }, Patient)).resolves.toEqual({ id: 'p1', firstName: 'Ana' });
    });

    it('loads a lazily imported schema only once the answer is here', async () => {
      const load = vi.fn(async () => Patient);
      const { request } = client(async () => jsonResponse(200, { id: 'p1', firstName: 'Ana' }));
      await expect(request({ path: '/v1/patients/p1' }, load)).resolves.toEqual({ id: 'p1', firstName: 'Ana' });
      expect(load).toHaveBeenCalledOnce();
    });

    it('turns a body that does not match into an ApiError with a plain message, logging the fields but not their values', async () => {
      const logMismatch = vi.fn();
      const { request, onUnauthorized } = client(async () => jsonResponse(200, { id: 'p1', firstName: 42, dob: 'Maria Lopez 1961-04-02' }), { logMismatch });

      const error = await request(
        { path: '/v1/patients/p-123/notes/n9', query: { q: 'Maria' } },
        z.object({ id: z.string(), firstName: z.string(), dob: z.number() }),
      ).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 200, message: UNREADABLE_RESPONSE_MESSAGE, reason: 'unreadable_response' });
      expect(onUnauthorized).not.toHaveBeenCalled();
      expect(logMismatch).toHaveBeenCalledWith({ method: 'GET', path: '/v1/patients/:id/notes/:id', issues: ['firstName: invalid_type', 'dob: invalid_type'] });
      expect(JSON.stringify(logMismatch.mock.calls)).not.toMatch(/Maria|p-123|42/);
    });

    it('treats a body that is not JSON as one that does not match', async () => {
      const { request } = client(async () => new Response('<html>proxy page</html>', { status: 200 }), { logMismatch: () => undefined });
      await expect(request({ path: '/v1/patients' }, Patient)).rejects.toMatchObject({ message: UNREADABLE_RESPONSE_MESSAGE });
    });
  });
});

describe('pathPattern', () => {
  it('keeps the route words and hides every id', () => {
    expect(pathPattern('/v1/patients/01HX9/access-history')).toBe('/v1/patients/:id/access-history');
    expect(pathPattern('/v2/practices/forms')).toBe('/v2/practices/forms');
  });
});
