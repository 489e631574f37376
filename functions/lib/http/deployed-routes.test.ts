import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../groups.js';
import { deployedRouteKeys, deployedRoutes, shapeOf, SIGNED_GROUP_SUFFIX } from './deployed-routes.js';
import { compileRoutes, matchRoute } from './route-matcher.js';

const deployed = compileRoutes(deployedRouteKeys(GROUPS));
const own = compileRoutes(GROUPS);

/** A concrete request path for a route key: every {param} filled in. */
function pathOf(routeKey: string): { method: string; path: string } {
  const [method, template] = routeKey.split(' ');
  return { method, path: template.replace(/\{[^}]+\}/g, (_, i: number) => `v${i}`) };
}

describe('deployedRouteKeys', () => {
  it('registers fewer keys than there are routes', () => {
    const registered = deployedRouteKeys(GROUPS).flatMap((g) => g.routes);
    expect(registered.length).toBeLessThan(GROUPS.flatMap((g) => g.routes).length);
    expect(new Set(registered.map(shapeOf)).size).toBe(registered.length);
  });

  it('moves a route alone under its greedy key under a shorter key its group registers anyway', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/p/metadata', 'GET /v1/p/users', 'GET /v1/p/form-mappings/{formId}'] },
      { name: 'b', routes: ['GET /v1/p/templates/{templateId}'] },
    ]);
    expect(keys.find((g) => g.name === 'a')!.routes).toEqual(['GET /v1/p/{proxy+}']);
    const compiled = compileRoutes(keys);
    expect(matchRoute(compiled, 'GET', '/v1/p/form-mappings/f1')?.route.group).toBe('a');
    expect(matchRoute(compiled, 'GET', '/v1/p/templates/t1')?.route.group).toBe('b');
  });

  it('names a method on every key, so the CORS preflight (OPTIONS) reaches no route behind the authorizer', () => {
    for (const key of deployedRouteKeys(GROUPS).flatMap((g) => g.routes)) expect(key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
  });

  it("sends every route of every group to its own group, then to that route in the group's table", () => {
    for (const group of GROUPS) {
      for (const routeKey of group.routes) {
        const { method, path } = pathOf(routeKey);
        const gateway = matchRoute(deployed, method, path);
        expect(gateway?.route.group, routeKey).toBe(group.name);
        // What the handler does with a greedy key; an exact key is the route itself.
        const resolved = gateway!.route.routeKey.includes('{proxy+}')
          ? matchRoute(
              own.filter((r) => r.group === group.name),
              method,
              path,
            )?.route.routeKey
          : gateway!.route.routeKey;
        expect(resolved, routeKey).toBe(matchRoute(own, method, path)?.route.routeKey);
      }
    }
  });

  it('sends a path no route has nowhere, or to a greedy key of a group that has no such route (its handler answers 404)', () => {
    const unknown = [
      ['GET', '/v1/no-such-route'],
      ['GET', '/v1/notes/n1/no-such-action'],
      ['DELETE', '/v1/notes/n1/sign'],
      ['GET', '/v1/patients/p1/allergies/a1/extra'],
      ['GET', '/v1/practices/users/me/nothing'],
      ['PATCH', '/v1/s3/files'],
      ['OPTIONS', '/v1/notes/n1/sign'],
      ['GET', '/v2/patients/p1/nothing'],
    ] as const;
    for (const [method, path] of unknown) {
      expect(matchRoute(own, method, path), `${method} ${path}`).toBeNull();
      const gateway = matchRoute(deployed, method, path);
      if (gateway === null) continue;
      expect(gateway.route.routeKey, `${method} ${path}`).toContain('{proxy+}');
      expect(
        matchRoute(
          own.filter((r) => r.group === gateway.route.group),
          method,
          path,
        ),
        `${method} ${path}`,
      ).toBeNull();
    }
  });

  it('keeps a route exact where a greedy key could take another group’s request', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/x/{id}/one', 'GET /v1/x/{id}/two/{sub}'] },
      { name: 'b', routes: ['GET /v1/x/special/three'] },
    ]);
    expect(keys).toEqual([
      // b's exact key beats a's greedy one on its own path, and takes nothing else.
      { name: 'a', routes: ['GET /v1/x/{id}/{proxy+}'] },
      // `/v1/x/special/{proxy+}` would also take a's `/v1/x/special/one`.
      { name: 'b', routes: ['GET /v1/x/special/three'] },
    ]);
  });

  it('folds routes beside another group’s exact routes where those beat the greedy key segment by segment', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/x/special/one', 'GET /v1/x/special/four'] },
      { name: 'b', routes: ['GET /v1/x/{id}/two'] },
    ]);
    // b's exact route beats `/v1/x/{proxy+}` on /v1/x/special/two; `/v1/x/special/{proxy+}` would
    // outrank it there, literal over {param}.
    expect(keys).toEqual([
      { name: 'a', routes: ['GET /v1/x/{proxy+}'] },
      { name: 'b', routes: ['GET /v1/x/{id}/two'] },
    ]);
  });

  it('keeps a longer greedy key of one group under a shorter one of another, where it wins by every reading', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['POST /v1/x', 'POST /v1/x/{id}/archive', 'POST /v1/x/{id}/docs/accept'] },
      { name: 'b', routes: ['POST /v1/x/{id}/one', 'POST /v1/x/{id}/two', 'POST /v1/x/{id}/three', 'POST /v1/x/{id}/four'] },
    ]);
    // a's `/v1/x/{id}/docs/{proxy+}` beats b's `/v1/x/{id}/{proxy+}` as the longer greedy prefix
    // and segment by segment (a literal over {proxy+}), so b's four routes become one key.
    expect(keys).toEqual([
      { name: 'a', routes: ['POST /v1/x', 'POST /v1/x/{id}/archive', 'POST /v1/x/{id}/docs/{proxy+}'] },
      { name: 'b', routes: ['POST /v1/x/{id}/{proxy+}'] },
    ]);
  });

  it('lets one group take a whole version prefix where every other group keeps longer keys', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/things', 'GET /v1/things/{id}', 'GET /v1/others', 'GET /v1/others/{id}/parts'] },
      { name: 'b', routes: ['GET /v1/notes', 'GET /v1/notes/{id}', 'GET /v1/notes/{id}/history'] },
    ]);
    expect(keys).toEqual([
      { name: 'a', routes: ['GET /v1/{proxy+}'] },
      { name: 'b', routes: ['GET /v1/notes', 'GET /v1/notes/{proxy+}'] },
    ]);
  });

  it('folds a single route only where its key is registered already', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/x/special/one'] },
      { name: 'b', routes: ['GET /v1/x/{id}/two'] },
    ]);
    expect(keys[0]).toEqual({ name: 'a', routes: ['GET /v1/x/special/one'] });
  });

  it('never folds a route that an exact route of another group of the same shape could answer', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /v1/x/{id}/one', 'GET /v1/x/{id}/three'] },
      { name: 'b', routes: ['GET /v1/x/{id}/{action}'] },
    ]);
    expect(keys[0]).toEqual({ name: 'a', routes: ['GET /v1/x/{id}/one', 'GET /v1/x/{id}/three'] });
  });

  it('sends every request that names another route’s literals to the right group', () => {
    // Fill each route's {params} with the literals other routes have at those places, so every
    // pair of routes that a path could match together is tried.
    const routes = GROUPS.flatMap((g) => g.routes);
    const literalsAt = (i: number) => new Set(routes.map((k) => k.split(' ')[1].split('/').filter(Boolean)[i]).filter((s) => s && !s.startsWith('{')));
    let tried = 0;
    for (const routeKey of routes) {
      const [method, template] = routeKey.split(' ');
      const parts = template.split('/').filter(Boolean);
      parts.forEach((part, i) => {
        if (!part.startsWith('{') || part.endsWith('+}')) return;
        for (const literal of literalsAt(i)) {
          const path = '/' + parts.map((p, j) => (j === i ? literal : p.replace(/\{[^}]+\}/, `v${j}`))).join('/');
          const expected = matchRoute(own, method, path);
          const gateway = matchRoute(deployed, method, path);
          tried++;
          if (!expected) {
            if (gateway)
              expect(
                matchRoute(
                  own.filter((r) => r.group === gateway.route.group),
                  method,
                  path,
                ),
                `${method} ${path}`,
              ).toBeNull();
            continue;
          }
          expect(gateway?.route.group, `${method} ${path}`).toBe(expected.route.group);
        }
      });
    }
    expect(tried).toBeGreaterThan(100);
  });

  it('registers one greedy key for prefixes that differ only in parameter names', () => {
    const keys = deployedRouteKeys([{ name: 'a', routes: ['GET /a/{x}/b/c', 'GET /a/{y}/d/e'] }]);
    expect(keys).toEqual([{ name: 'a', routes: ['GET /a/{x}/{proxy+}'] }]);
  });

  it('folds routes of a method that no other group uses under a prefix', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['DELETE /v1/x/{id}/one', 'GET /v1/x/{id}/one'] },
      { name: 'b', routes: ['GET /v1/x/special/three'] },
    ]);
    expect(keys[0]).toEqual({ name: 'a', routes: ['DELETE /v1/x/{proxy+}', 'GET /v1/x/{id}/one'] });
  });

  it("registers a group's own greedy route as it is, and folds no other group's route under it", () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['ANY /v1/files/{proxy+}'] },
      { name: 'b', routes: ['GET /v1/files/{id}/meta', 'GET /v1/other/{id}/meta'] },
    ]);
    expect(keys).toEqual([
      { name: 'a', routes: ['ANY /v1/files/{proxy+}'] },
      { name: 'b', routes: ['GET /v1/files/{id}/meta', 'GET /v1/other/{proxy+}'] },
    ]);
  });

  it("moves a group's greedy route under a shorter greedy key of its own, unless another group's key could take its requests", () => {
    const a = { name: 'a', routes: ['GET /v1/p/metadata', 'GET /v1/p/users', 'GET /v1/p/exports/{id}/files/{path+}'] };
    const keys = deployedRouteKeys([a, { name: 'b', routes: ['GET /v1/x/{id}'] }]);
    expect(keys[0]).toEqual({ name: 'a', routes: ['GET /v1/p/{proxy+}'] });
    const compiled = compileRoutes(keys);
    const request = matchRoute(compiled, 'GET', '/v1/p/exports/e1/files/files/pt1/0001-scan.pdf');
    expect(request?.route.group).toBe('a');
    // The group's handler resolves the greedy key to the route and its whole path.
    const resolved = matchRoute(compileRoutes([a]), 'GET', '/v1/p/exports/e1/files/files/pt1/0001-scan.pdf');
    expect(resolved?.pathParameters).toEqual({ id: 'e1', path: 'files/pt1/0001-scan.pdf' });

    const beside = deployedRouteKeys([a, { name: 'b', routes: ['GET /v1/p/exports/{id}/files/special/{name}'] }]);
    expect(beside[0]!.routes).toContain('GET /v1/p/exports/{id}/files/{path+}');
    expect(matchRoute(compileRoutes(beside), 'GET', '/v1/p/exports/e1/files/special/x')?.route.group).toBe('b');
  });

  it('keeps a route exact where an exact route of its own group would take its requests', () => {
    const keys = deployedRouteKeys([
      { name: 'a', routes: ['GET /a/{id}/b', 'GET /a/x/b'] },
      { name: 'b', routes: ['GET /a/other/c/d'] },
    ]);
    expect(keys[0]).toEqual({ name: 'a', routes: ['GET /a/{id}/b', 'GET /a/x/b'] });
  });
});

describe('deployedRoutes with signed routes', () => {
  const all = deployedRoutes(GROUPS);
  const compiled = compileRoutes(all.map((d) => ({ name: `${d.group}${d.signed ? SIGNED_GROUP_SUFFIX : ''}`, routes: d.routes })));

  it('sends every signed route to its group without the authorizer, and every token route to a route behind it', () => {
    for (const group of GROUPS) {
      for (const routeKey of group.signedRoutes ?? []) {
        const { method, path } = pathOf(routeKey);
        expect(matchRoute(compiled, method, path)?.route.group, routeKey).toBe(`${group.name}${SIGNED_GROUP_SUFFIX}`);
      }
      for (const routeKey of group.routes) {
        const { method, path } = pathOf(routeKey);
        expect(matchRoute(compiled, method, path)?.route.group, routeKey).toBe(group.name);
      }
    }
  });

  it('registers the token routes exactly as before', () => {
    expect(all.filter((d) => !d.signed).map((d) => ({ name: d.group, routes: d.routes }))).toEqual(deployedRouteKeys(GROUPS));
  });
});
