type Segment = { kind: 'literal'; value: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };

export interface CompiledRoute {
  routeKey: string;
  method: string;
  group: string;
  segments: Segment[];
}

export interface RouteMatch {
  route: CompiledRoute;
  pathParameters: Record<string, string>;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Route keys as API Gateway writes them: "GET /v1/patients/{patientId}", "ANY /files/{proxy+}". */
export function compileRoutes(groups: readonly { name: string; routes: readonly string[] }[]): CompiledRoute[] {
  return groups.flatMap((group) =>
    group.routes.map((routeKey) => {
      const [method, path] = routeKey.split(' ');
      if (!method || !path) throw new Error(`Route key "${routeKey}" of group ${group.name} is not "METHOD /path"`);
      const segments: Segment[] = splitPath(path).map((s) => {
        const param = /^\{([^}]+?)(\+)?\}$/.exec(s);
        if (!param) return { kind: 'literal', value: s };
        return param[2] ? { kind: 'greedy', name: param[1] } : { kind: 'param', name: param[1] };
      });
      return { routeKey, method: method.toUpperCase(), group: group.name, segments };
    }),
  );
}

function matchSegments(route: CompiledRoute, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [i, segment] of route.segments.entries()) {
    if (segment.kind === 'greedy') {
      const rest = parts.slice(i);
      if (rest.length === 0) return null;
      params[segment.name] = rest.map(decode).join('/');
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (segment.kind === 'literal') {
      if (segment.value !== part) return null;
    } else {
      params[segment.name] = decode(part);
    }
  }
  return parts.length === route.segments.length ? params : null;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const RANK = { literal: 3, param: 2, greedy: 1 } as const;

/** API Gateway prefers the most specific route: literal segments over {params} over {proxy+}, then exact method over ANY. */
function moreSpecific(a: CompiledRoute, b: CompiledRoute): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    const ra = a.segments[i] ? RANK[a.segments[i].kind] : 0;
    const rb = b.segments[i] ? RANK[b.segments[i].kind] : 0;
    if (ra !== rb) return rb - ra;
  }
  return (a.method === 'ANY' ? 1 : 0) - (b.method === 'ANY' ? 1 : 0);
}

export function matchRoute(routes: readonly CompiledRoute[], method: string, path: string): RouteMatch | null {
  const parts = splitPath(path);
  const upper = method.toUpperCase();
  const candidates: RouteMatch[] = [];
  for (const route of routes) {
    if (route.method !== upper && route.method !== 'ANY') continue;
    const pathParameters = matchSegments(route, parts);
    if (pathParameters) candidates.push({ route, pathParameters });
  }
  candidates.sort((x, y) => moreSpecific(x.route, y.route));
  return candidates[0] ?? null;
}
