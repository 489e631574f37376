import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from './route-matcher.js';

const routes = compileRoutes([
  { name: 'patients', routes: ['GET /v1/patients', 'GET /v1/patients/{patientId}', 'POST /v1/patients/{patientId}/archive'] },
  { name: 'chart', routes: ['GET /v1/patients/search-index', 'ANY /v1/files/{proxy+}'] },
]);

describe('matchRoute', () => {
  it('matches a template and URL-decodes its parameters', () => {
    const match = matchRoute(routes, 'GET', '/v1/patients/pt%20one');
    expect(match?.route.routeKey).toBe('GET /v1/patients/{patientId}');
    expect(match?.route.group).toBe('patients');
    expect(match?.pathParameters).toEqual({ patientId: 'pt one' });
  });

  it('prefers a literal segment over a parameter, as API Gateway does', () => {
    expect(matchRoute(routes, 'GET', '/v1/patients/search-index')?.route.routeKey).toBe('GET /v1/patients/search-index');
  });

  it('matches a greedy parameter across segments and ANY method', () => {
    const match = matchRoute(routes, 'DELETE', '/v1/files/a/b.pdf');
    expect(match?.route.routeKey).toBe('ANY /v1/files/{proxy+}');
    expect(match?.pathParameters).toEqual({ proxy: 'a/b.pdf' });
  });

  it('refuses another method, a longer path and a trailing unknown segment', () => {
    expect(matchRoute(routes, 'DELETE', '/v1/patients/p1')).toBeNull();
    expect(matchRoute(routes, 'GET', '/v1/patients/p1/archive')).toBeNull();
    expect(matchRoute(routes, 'GET', '/v2/patients')).toBeNull();
  });
});
