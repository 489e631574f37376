/**
 * The route keys the HTTP API registers: one CloudFormation resource each, so every group's
 * routes are folded into greedy keys (`ANY /v1/notes/{noteId}/{proxy+}`) wherever that cannot send
 * a request to the wrong Lambda; the group's handler resolves the greedy key back to its own
 * route key (group-handler.ts) with the same matcher.
 *
 * Why it is safe (API Gateway: an exact route beats a greedy one, a longer greedy prefix beats a
 * shorter one; a greedy key needs at least one segment after its prefix):
 * - A route r of group G is folded into `ANY /<first N segments of r>/{proxy+}` only when no route
 *   of another group has more than N segments overlapping that prefix. A path such a greedy key
 *   matches has more than N segments that overlap its prefix, so no route of another group
 *   matches that path: a greedy key of G never takes another group's request, and no other
 *   group's key (exact or greedy, by the same rule) takes one of G's.
 * - Within G, an exact key that stays could take a path of a more specific folded route of the
 *   same length (`/a/{id}/b` over `/a/x/b`) and reach the handler under the wrong route key; such
 *   a folded route stays exact too, so the exact routes keep API Gateway's own precedence.
 */

interface Segment {
  literal?: string;
  param: boolean;
}

interface ParsedRoute {
  key: string;
  method: string;
  group: string;
  path: string[];
  segments: Segment[];
}

function parse(group: string, key: string): ParsedRoute {
  const [method, path] = key.split(' ');
  if (!method || !path) throw new Error(`Route key "${key}" of group ${group} is not "METHOD /path"`);
  const parts = path.split('/').filter((s) => s !== '');
  if (parts.some((s) => s.endsWith('+}'))) throw new Error(`Route key "${key}" of group ${group} is already greedy`);
  const segments = parts.map((s) => (/^\{[^}]+\}$/.test(s) ? { param: true } : { literal: s, param: false }));
  return { key, method: method.toUpperCase(), group, path: parts, segments };
}

/** Equal literals, or a {param} on either side: some request path has both segments. */
function overlaps(a: Segment, b: Segment): boolean {
  return a.param || b.param || a.literal === b.literal;
}

function prefixOverlaps(route: ParsedRoute, prefix: Segment[]): boolean {
  return prefix.every((segment, i) => overlaps(segment, route.segments[i]));
}

/** Smallest N >= 2 whose greedy prefix no route of another group can reach, or null (stays exact). */
function greedyPrefixLength(route: ParsedRoute, others: readonly ParsedRoute[]): number | null {
  for (let n = 2; n < route.segments.length; n++) {
    const prefix = route.segments.slice(0, n);
    if (!others.some((o) => o.segments.length > n && prefixOverlaps(o, prefix))) return n;
  }
  return null;
}

/** An exact key that matches some path of `route` (same method or ANY, same length, every segment overlapping). */
function shadows(exact: ParsedRoute, route: ParsedRoute): boolean {
  return (
    exact.key !== route.key &&
    (exact.method === route.method || exact.method === 'ANY') &&
    exact.segments.length === route.segments.length &&
    prefixOverlaps(exact, route.segments)
  );
}

/** A key with its parameter names blanked: keys of one shape are the same route to API Gateway. */
export function shapeOf(routeKey: string): string {
  return routeKey.replace(/\{[^}+]+\}/g, '{}');
}

export function deployedRouteKeys(groups: readonly { name: string; routes: readonly string[] }[]): { name: string; routes: string[] }[] {
  const all = groups.flatMap((g) => g.routes.map((key) => parse(g.name, key)));
  const prefixLength = new Map<ParsedRoute, number | null>(
    all.map((r) => [
      r,
      greedyPrefixLength(
        r,
        all.filter((o) => o.group !== r.group),
      ),
    ]),
  );

  // Keeping one route exact can expose another of its group to it: repeat until nothing changes.
  let changed = true;
  while (changed) {
    changed = false;
    for (const route of all) {
      if (prefixLength.get(route) == null) continue;
      const exactOfGroup = all.filter((o) => o.group === route.group && prefixLength.get(o) == null);
      if (exactOfGroup.some((e) => shadows(e, route))) {
        prefixLength.set(route, null);
        changed = true;
      }
    }
  }

  return groups.map((g) => {
    const keys = all
      .filter((r) => r.group === g.name)
      .map((r) => {
        const n = prefixLength.get(r);
        return n == null ? r.key : `ANY /${r.path.slice(0, n).join('/')}/{proxy+}`;
      });
    // `/a/{x}/{proxy+}` and `/a/{y}/{proxy+}` are one route to API Gateway (it refuses both): keep the first.
    const byShape = new Map<string, string>();
    for (const key of keys) if (!byShape.has(shapeOf(key))) byShape.set(shapeOf(key), key);
    return { name: g.name, routes: [...byShape.values()] };
  });
}
