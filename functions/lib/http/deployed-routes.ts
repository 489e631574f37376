/**
 * The route keys the HTTP API registers: one CloudFormation resource each, so a group's routes of
 * one method are folded into a greedy key (`PUT /v1/notes/{proxy+}`) wherever that cannot send a
 * request to the wrong Lambda; the group's handler resolves the greedy key back to its own route
 * key (group-handler.ts) with the same matcher.
 *
 * Why it is safe (API Gateway: an exact route beats a greedy one, a longer greedy prefix beats a
 * shorter one; a greedy key needs at least one segment after its prefix):
 * - A route r of group G is folded into `<method> /<first N segments of r>/{proxy+}` only when no
 *   route of another group with that method has more than N segments overlapping that prefix. A
 *   request such a greedy key matches has that method and more than N segments overlapping its
 *   prefix, so no route of another group matches it: a greedy key of G never takes another group's
 *   request, and no other group's key (exact or greedy, by the same rule) takes one of G's.
 * - Within G, an exact key that stays could take a path of a more specific folded route of the
 *   same length (`/a/{id}/b` over `/a/x/b`) and reach the handler under the wrong route key; such
 *   a folded route stays exact too, so the exact routes keep API Gateway's own precedence.
 * - The greedy keys name their method, never ANY: an ANY route behind the JWT authorizer would also
 *   take the browser's unauthenticated CORS preflight (OPTIONS) and refuse it with 401, where a
 *   request no route matches gets the API's own CORS answer.
 * - A second pass folds a route that the first kept exact only because another group has routes
 *   under the prefix, where that is still safe: each of those routes stays exact (an exact route
 *   beats a greedy one) or is a greedy key with a longer prefix; none of them can match a request
 *   of the folded route; and the greedy key loses to them segment by segment too (literal over
 *   {param} over {proxy+}, the order route-matcher.ts models), so both readings of API Gateway's
 *   precedence send each request to the same group. `/v1/patients/{patientId}/{proxy+}` of the
 *   chart group beside the patients group's exact `/v1/patients/{patientId}/archive` is such a case.
 *   Where another group's earlier fold would be unsafe beside the new greedy key, that fold goes
 *   back to its exact key (exact beats greedy by every reading), and the new key is kept only when
 *   the API then registers fewer keys in all: the chart group's POST routes under
 *   `/v1/patients/{patientId}/` become one key beside the patients group's exact ones.
 *   A prefix may be one segment (`/v1/{proxy+}`): every other group's keys under it are then
 *   longer greedy keys or exact keys that win by both readings, and a path no group has still
 *   reaches a handler that answers 404.
 * - Last, a route folded under a long prefix moves under a shorter greedy key its own group
 *   registers anyway, where that is still safe.
 * - A greedy route of a group's table (`{path+}`) moves under a shorter greedy key its own group
 *   registers anyway when no key of another group could take one of its requests.
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
  /** Up to a greedy {name+}, if the route has one. */
  segments: Segment[];
  /** A route of the table that is greedy itself: registered as it is, and as long as any path. */
  greedy: boolean;
}

function parse(group: string, key: string): ParsedRoute {
  const [method, path] = key.split(' ');
  if (!method || !path) throw new Error(`Route key "${key}" of group ${group} is not "METHOD /path"`);
  const parts = path.split('/').filter((s) => s !== '');
  const greedyAt = parts.findIndex((s) => s.endsWith('+}'));
  const fixed = greedyAt === -1 ? parts : parts.slice(0, greedyAt);
  const segments = fixed.map((s) => (/^\{[^}]+\}$/.test(s) ? { param: true } : { literal: s, param: false }));
  return { key, method: method.toUpperCase(), group, path: parts, segments, greedy: greedyAt !== -1 };
}

/** Equal literals, or a {param} on either side: some request path has both segments. */
function overlaps(a: Segment, b: Segment): boolean {
  return a.param || b.param || a.literal === b.literal;
}

/** A greedy route overlaps any prefix its own fixed segments overlap. */
function prefixOverlaps(route: ParsedRoute, prefix: Segment[]): boolean {
  return prefix.every((segment, i) => i >= route.segments.length || overlaps(segment, route.segments[i]));
}

function sameMethod(a: ParsedRoute, b: ParsedRoute): boolean {
  return a.method === b.method || a.method === 'ANY' || b.method === 'ANY';
}

/** Smallest N >= 2 whose greedy prefix no route of another group can reach, or null (stays exact). */
function greedyPrefixLength(route: ParsedRoute, others: readonly ParsedRoute[]): number | null {
  if (route.greedy) return null;
  for (let n = 2; n < route.segments.length; n++) {
    const prefix = route.segments.slice(0, n);
    if (!others.some((o) => sameMethod(o, route) && (o.greedy || o.segments.length > n) && prefixOverlaps(o, prefix))) return n;
  }
  return null;
}

/** An exact key that matches some path of `route` (same method or ANY, same length, every segment overlapping). */
function shadows(exact: ParsedRoute, route: ParsedRoute): boolean {
  return (
    exact.key !== route.key &&
    (exact.method === route.method || exact.method === 'ANY') &&
    // A greedy route of the table reaches the handler as a greedy key, which it resolves anyway.
    !exact.greedy &&
    exact.segments.length === route.segments.length &&
    prefixOverlaps(exact, route.segments)
  );
}

/**
 * The second pass: repeatedly registers the greedy key that saves the most keys, folding the
 * exact routes of one group that can safely move under it, as long as every earlier fold stays safe.
 */
function foldBesideOtherGroups(all: readonly ParsedRoute[], prefixLength: Map<ParsedRoute, number | null>): void {
  const rejected = new Set<string>();
  for (;;) {
    let best: { key: string; n: number; routes: ParsedRoute[]; saves: number } | undefined;
    const candidates = new Map<string, { n: number; routes: ParsedRoute[] }>();
    for (const route of all) {
      if (route.greedy) continue;
      // An exact route, or one folded under a longer prefix that a shorter key could join to others.
      const limit = prefixLength.get(route) ?? route.segments.length;
      for (let n = 1; n < limit; n++) {
        const key = `${route.group} ${shapeOf(`${route.method} /${route.path.slice(0, n).join('/')}/{proxy+}`)}`;
        if (rejected.has(key) || !foldIsSafe(route, n, all, prefixLength)) continue;
        const entry = candidates.get(key) ?? { n, routes: [] };
        entry.routes.push(route);
        candidates.set(key, entry);
      }
    }
    const keyOf = (r: ParsedRoute) => `${r.group} ${shapeOf(registeredKey(r, prefixLength.get(r)))}`;
    const routesByKey = new Map<string, ParsedRoute[]>();
    for (const r of all) routesByKey.set(keyOf(r), [...(routesByKey.get(keyOf(r)) ?? []), r]);
    for (const [key, { n, routes }] of candidates) {
      const group = routes[0].group;
      const alreadyRegistered = all.some(
        (r) => r.group === group && prefixLength.get(r) === n && key === `${group} ${shapeOf(`${r.method} /${r.path.slice(0, n).join('/')}/{proxy+}`)}`,
      );
      // Keys that go away: those whose every route moves under the candidate.
      const moving = new Set(routes);
      const emptied = new Set(routes.map(keyOf).filter((k) => routesByKey.get(k)!.every((r) => moving.has(r))));
      const saves = emptied.size - (alreadyRegistered ? 0 : 1);
      // Of equal savings, the longest prefix: a greedy key takes no more paths than it must.
      if (saves > 0 && (!best || saves > best.saves || (saves === best.saves && n > best.n))) best = { key, n, routes, saves };
    }
    if (!best) return;
    const before = new Map(prefixLength);
    const keysBefore = registeredKeyCount(all, prefixLength);
    for (const route of best.routes) prefixLength.set(route, best.n);
    // Another group's fold that the new key would make unsafe goes back to its exact key (an exact
    // key beats every greedy one); the new key stays only if the whole still registers fewer keys.
    unfoldUnsafe(all, prefixLength, new Set(best.routes));
    if (!allFoldsSafe(all, prefixLength) || registeredKeyCount(all, prefixLength) >= keysBefore) {
      for (const [route, n] of before) prefixLength.set(route, n);
      rejected.add(best.key);
    }
  }
}

/**
 * A route folded early under a longer prefix moves under a shorter greedy key its group registers
 * anyway (`/v1/things/{proxy+}` under `/v1/{proxy+}`), where that stays safe: one key fewer.
 */
function foldUnderOwnShorterKeys(all: readonly ParsedRoute[], prefixLength: Map<ParsedRoute, number | null>): void {
  const registered = () => new Set(all.map((r) => `${r.group} ${shapeOf(registeredKey(r, prefixLength.get(r)))}`));
  for (const route of all) {
    const current = prefixLength.get(route);
    if (current == null) continue;
    const keys = registered();
    for (let n = 1; n < current; n++) {
      if (!keys.has(`${route.group} ${shapeOf(registeredKey(route, n))}`) || !foldIsSafe(route, n, all, prefixLength)) continue;
      prefixLength.set(route, n);
      if (allFoldsSafe(all, prefixLength)) break;
      prefixLength.set(route, current);
    }
  }
}

/**
 * After every other fold, a greedy route of a group's own table (`/exports/{id}/files/{path+}`) moves under a shorter
 * greedy key its group registers anyway, where no key of another group could take one of its
 * requests: its requests reach the group as before, and the group's handler resolves them.
 */
function foldOwnGreedyRoutes(all: readonly ParsedRoute[], prefixLength: Map<ParsedRoute, number | null>): void {
  for (const route of all) {
    if (!route.greedy) continue;
    const length = route.segments.length;
    // Every request of the route has more than `length` segments, the first `length` overlapping its own.
    const reachable = all.some((other) => {
      if (other.group === route.group || !sameMethod(other, route)) return false;
      const key = registeredPrefix(other, prefixLength);
      if (!key.greedy && key.segments.length <= length) return false;
      const common = Math.min(key.segments.length, length);
      return key.segments.slice(0, common).every((s, i) => overlaps(s, route.segments[i]));
    });
    if (reachable) continue;
    const keys = new Set(all.filter((r) => r.group === route.group && r !== route).map((r) => shapeOf(registeredKey(r, prefixLength.get(r)))));
    for (let n = length - 1; n >= 1; n--) {
      if (!keys.has(shapeOf(registeredKey(route, n)))) continue;
      prefixLength.set(route, n);
      break;
    }
  }
}

/** Sends every unsafe fold but those of `keep` back to its exact key, until every fold left is safe or one of `keep` is not. */
function unfoldUnsafe(all: readonly ParsedRoute[], prefixLength: Map<ParsedRoute, number | null>, keep: ReadonlySet<ParsedRoute>): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const route of all) {
      const n = prefixLength.get(route);
      if (n == null || keep.has(route) || foldIsSafe(route, n, all, prefixLength)) continue;
      prefixLength.set(route, null);
      changed = true;
    }
    if (keepShadowedExact(all, prefixLength)) changed = true;
  }
}

/** How many route keys the API registers with these folds (keys of one shape are one). */
function registeredKeyCount(all: readonly ParsedRoute[], prefixLength: ReadonlyMap<ParsedRoute, number | null>): number {
  return new Set(all.map((r) => `${r.group} ${shapeOf(registeredKey(r, prefixLength.get(r)))}`)).size;
}

function registeredKey(route: ParsedRoute, n: number | null | undefined): string {
  return n == null ? route.key : `${route.method} /${route.path.slice(0, n).join('/')}/{proxy+}`;
}

/** Every folded route still reaches its own group with every other route as registered. */
function allFoldsSafe(all: readonly ParsedRoute[], prefixLength: ReadonlyMap<ParsedRoute, number | null>): boolean {
  return all.every((route) => {
    const n = prefixLength.get(route);
    return n == null || foldIsSafe(route, n, all, prefixLength);
  });
}

/** Keeping one route exact can expose another of its group to it: repeat until nothing changes. */
function keepShadowedExact(all: readonly ParsedRoute[], prefixLength: Map<ParsedRoute, number | null>): boolean {
  let any = false;
  let changed = true;
  while (changed) {
    changed = false;
    for (const route of all) {
      if (prefixLength.get(route) == null) continue;
      const exactOfGroup = all.filter((o) => o.group === route.group && prefixLength.get(o) == null);
      if (exactOfGroup.some((e) => shadows(e, route))) {
        prefixLength.set(route, null);
        changed = any = true;
      }
    }
  }
  return any;
}

const RANK = (segment: Segment) => (segment.param ? 2 : 3);

/** `segments` beats a greedy key on `prefix` segment by segment: higher at the first difference, or equal throughout. */
function beatsGreedyPrefix(segments: readonly Segment[], prefix: readonly Segment[]): boolean {
  for (let i = 0; i < prefix.length; i++) {
    const a = RANK(segments[i]);
    const b = RANK(prefix[i]);
    if (a !== b) return a > b;
  }
  return true;
}

/** The fixed part of a route's key as registered: all of it if exact, up to {proxy+} if greedy. */
function registeredPrefix(route: ParsedRoute, prefixLength: ReadonlyMap<ParsedRoute, number | null>): { segments: Segment[]; greedy: boolean } {
  const n = prefixLength.get(route);
  if (route.greedy) return { segments: n == null ? route.segments : route.segments.slice(0, n), greedy: true };
  return n == null ? { segments: route.segments, greedy: false } : { segments: route.segments.slice(0, n), greedy: true };
}

/**
 * Folding `route` into `<method> /<first n segments>/{proxy+}` sends every request of its own to
 * it and no request of another group's route to it, with every other route as registered now.
 */
function foldIsSafe(route: ParsedRoute, n: number, all: readonly ParsedRoute[], prefixLength: ReadonlyMap<ParsedRoute, number | null>): boolean {
  const prefix = route.segments.slice(0, n);
  for (const other of all) {
    if (other === route || !sameMethod(other, route)) continue;
    const key = registeredPrefix(other, prefixLength);
    if (other.group === route.group) {
      if (!key.greedy && shadows(other, route)) return false;
      continue;
    }
    if (!key.greedy) {
      // An exact route of the same shape could answer this route's own requests.
      if (key.segments.length === route.segments.length && key.segments.every((s, i) => overlaps(s, route.segments[i]))) return false;
      // One the greedy key could reach must beat it by either reading of the precedence.
      if (key.segments.length > n && prefixOverlaps({ ...other, segments: key.segments }, prefix) && !beatsGreedyPrefix(key.segments, prefix)) return false;
      continue;
    }
    const m = key.segments.length;
    const common = Math.min(m, n);
    if (!key.segments.slice(0, common).every((s, i) => overlaps(s, prefix[i]))) continue;
    if (m === n) return false;
    // A shorter greedy key of another group above this prefix: this longer prefix wins every request of this route by
    // either reading of the precedence (longer greedy prefix first; segment by segment, where {proxy+} ranks last) when
    // it also wins each segment the shorter key names.
    if (m < n) {
      if (!beatsGreedyPrefix(prefix, key.segments)) return false;
      continue;
    }
    // Another group's greedy key under this prefix: only a longer one that wins and takes none of this route's requests.
    if (!beatsGreedyPrefix(key.segments, prefix)) return false;
    if (route.segments.length > m && key.segments.every((s, i) => overlaps(s, route.segments[i]))) return false;
  }
  return true;
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

  keepShadowedExact(all, prefixLength);
  foldBesideOtherGroups(all, prefixLength);
  foldUnderOwnShorterKeys(all, prefixLength);
  foldOwnGreedyRoutes(all, prefixLength);

  return groups.map((g) => {
    const keys = all.filter((r) => r.group === g.name).map((r) => registeredKey(r, prefixLength.get(r)));
    // `GET /a/{x}/{proxy+}` and `GET /a/{y}/{proxy+}` are one route to API Gateway (it refuses both): keep the first.
    const byShape = new Map<string, string>();
    for (const key of keys) if (!byShape.has(shapeOf(key))) byShape.set(shapeOf(key), key);
    return { name: g.name, routes: [...byShape.values()] };
  });
}

/** Marks the registered routes of a group's signedRoutes: they go without the JWT authorizer. */
export const SIGNED_GROUP_SUFFIX = '#signed';

export interface DeployedGroupRoutes {
  /** The group (function) the routes reach. */
  group: string;
  /** Routes a partner signs: registered without the JWT authorizer. */
  signed: boolean;
  routes: string[];
}

/**
 * deployedRouteKeys over every group's routes and, as groups of their own, their signed routes: no
 * greedy key of a token route can then take a signed route's request, nor the other way round.
 */
export function deployedRoutes(groups: readonly { name: string; routes: readonly string[]; signedRoutes?: readonly string[] }[]): DeployedGroupRoutes[] {
  const all = groups.flatMap((g) => [
    { name: g.name, routes: g.routes },
    ...(g.signedRoutes?.length ? [{ name: `${g.name}${SIGNED_GROUP_SUFFIX}`, routes: g.signedRoutes }] : []),
  ]);
  return deployedRouteKeys(all).map((d) => {
    const signed = d.name.endsWith(SIGNED_GROUP_SUFFIX);
    return { group: signed ? d.name.slice(0, -SIGNED_GROUP_SUFFIX.length) : d.name, signed, routes: d.routes };
  });
}
