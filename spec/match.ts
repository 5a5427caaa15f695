/**
 * "Which operation is this request?", answered once for the whole project: the
 * mock's router and every layer around it, the client coverage, the scenarios,
 * the journal's filter, and the suite's judge and coverage table all ask this
 * matcher, compiled from the spec's path templates. A path is split into
 * segments and each is decoded on its own (`%70ets` is `pets`, an escaped
 * slash `%2F` never separates), as the mock serves it.
 */
import { listOperations, type OperationInfo } from './index.ts';

/** A path matched to one of the spec's path templates. */
export interface RouteMatch {
  /** The template below the base path, as the spec writes it: `/pets/{petId}`. */
  template: string;
  /** The path as {@link canonicalPath} writes it: `/v1/pets/7` for `/v1/%70ets/7`. */
  path: string;
  /** The template's parameters, decoded: `{ petId: '7' }`. */
  params: Readonly<Record<string, string>>;
  /** The template's operations by method; `HEAD` is answered by the `GET` one. */
  operations: ReadonlyMap<string, OperationInfo>;
  /** The methods the path allows, as an `Allow` header lists them (`GET, HEAD, POST`), without OPTIONS. */
  allow: readonly string[];
}

/** Matches request paths (origin form, no query) below one base path to the spec's operations. */
export interface OperationMatcher {
  /** The route of a path (`/v1/pets/7`), whatever the method; undefined for a path the spec has no template for. */
  route(path: string): RouteMatch | undefined;
  /** The operation a method and path address (`HEAD` as `GET`), or undefined. */
  operation(method: string, path: string): OperationInfo | undefined;
}

interface CompiledRoute {
  template: string;
  /** Literal segments as themselves, parameters as `{name}`. */
  segments: readonly string[];
  params: readonly (string | undefined)[];
  operations: ReadonlyMap<string, OperationInfo>;
  allow: readonly string[];
}

const PARAMETER = /^\{([^/{}]+)\}$/;

function compile(operations: readonly OperationInfo[]): CompiledRoute[] {
  const byTemplate = new Map<string, Map<string, OperationInfo>>();
  for (const op of operations) {
    const methods = byTemplate.get(op.path) ?? new Map<string, OperationInfo>();
    methods.set(op.method, op);
    byTemplate.set(op.path, methods);
  }
  return [...byTemplate].map(([template, methods]) => {
    const segments = template.slice(1).split('/');
    const allow = [...methods.keys()];
    if (methods.has('GET') && !methods.has('HEAD')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    return {
      template,
      segments,
      params: segments.map((s) => PARAMETER.exec(s)?.[1]),
      operations: methods,
      allow: allow.sort(),
    };
  });
}

/** `/a/b%2Fc` as `['a', 'b/c']`; undefined when an escape does not decode. */
function decodeSegments(path: string): string[] | undefined {
  const segments = path.slice(1).split('/');
  if (!path.includes('%')) return segments;
  try {
    return segments.map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/** A decoded segment written back so that it stays one segment: only `%` and `/` escaped. */
function encodeSegment(segment: string): string {
  return segment.replace(/%/g, '%25').replace(/\//g, '%2F');
}

/**
 * A path with each segment decoded and only `%` and `/` escaped again (`/v1/%70ets/a%2Fb` is `/v1/pets/a%2Fb`):
 * two spellings of one path are one string, and splitting it on `/` gives its segments. A path whose escapes do
 * not decode is returned as it is.
 */
export function canonicalPath(path: string): string {
  if (!path.includes('%')) return path;
  const segments = decodeSegments(path);
  return segments === undefined ? path : `/${segments.map(encodeSegment).join('/')}`;
}

/**
 * Whether a canonical path is `template` exactly, or fits it where the template has `{name}` segments (each
 * takes one non-empty segment): how scenarios and the journal's filter read `/v1/pets/{petId}`.
 */
export function matchesTemplate(template: string, path: string): boolean {
  if (!template.includes('{')) return template === path;
  const want = template.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((w, i) => (PARAMETER.test(w) ? got[i] !== '' : w === got[i]));
}

const matchers = new Map<string, OperationMatcher>();

/**
 * The matcher for operations served under `basePath` (`/v1`, `/api/v1`; '' at the root), compiled once per
 * base path from the spec's operations.
 */
export function operationMatcher(basePath = '/v1'): OperationMatcher {
  const known = matchers.get(basePath);
  if (known) return known;
  // One per base path a process serves or checks: a few, but a long-lived process checking many keeps no more than this.
  if (matchers.size >= 64) matchers.clear();
  const routes = compile(listOperations());
  const baseSegments = basePath === '' ? [] : basePath.slice(1).split('/');
  const fits = (route: CompiledRoute, rest: readonly string[]): boolean =>
    route.segments.length === rest.length &&
    route.segments.every((s, i) => (route.params[i] === undefined ? s === rest[i] : rest[i] !== ''));
  const matched = (route: CompiledRoute, segments: readonly string[], path?: string): RouteMatch => {
    const params: Record<string, string> = {};
    route.params.forEach((name, i) => {
      if (name !== undefined) params[name] = segments[i]!;
    });
    return {
      template: route.template,
      path: path ?? `/${[...baseSegments, ...segments].map(encodeSegment).join('/')}`,
      params,
      operations: route.operations,
      allow: route.allow,
    };
  };
  // The usual request has no escape and fits a template with no parameter (`/v1/pets`), or one parameter last
  // (`/v1/pets/{petId}`): those are matched by comparing strings, with no split and, for the first, no allocation.
  // A few literal paths (the spec has one): compared in turn, which costs less than hashing the path.
  const exact: [literal: string, match: RouteMatch][] = [];
  const lastParam: { prefix: string; name: string; route: CompiledRoute }[] = [];
  for (const r of routes) {
    const literal = `/${[...baseSegments, ...r.segments].join('/')}`;
    const params = r.params.filter((p) => p !== undefined);
    if (params.length === 0)
      exact.push([literal, Object.freeze({ ...matched(r, r.segments, literal), params: Object.freeze({}) })]);
    else if (params.length === 1 && r.params.at(-1) !== undefined)
      lastParam.push({ prefix: literal.slice(0, literal.lastIndexOf('/') + 1), name: params[0]!, route: r });
  }
  const fast = (path: string): RouteMatch | undefined => {
    for (const [literal, hit] of exact) if (path === literal) return hit;
    for (const { prefix, name, route: r } of lastParam) {
      if (!path.startsWith(prefix)) continue;
      const value = path.slice(prefix.length);
      if (value === '' || value.includes('/')) continue;
      return { template: r.template, path, params: { [name]: value }, operations: r.operations, allow: r.allow };
    }
    return undefined;
  };
  const route = (path: string): RouteMatch | undefined => {
    if (!path.includes('%')) {
      const hit = fast(path);
      if (hit) return hit;
    }
    const segments = decodeSegments(path);
    if (segments === undefined || segments.length < baseSegments.length) return undefined;
    for (let i = 0; i < baseSegments.length; i++) if (segments[i] !== baseSegments[i]) return undefined;
    const rest = baseSegments.length === 0 ? segments : segments.slice(baseSegments.length);
    const hit = routes.find((r) => fits(r, rest));
    return hit && matched(hit, rest, path.includes('%') ? undefined : path);
  };
  const matcher: OperationMatcher = {
    route,
    operation(method, path) {
      return route(path)?.operations.get(method === 'HEAD' ? 'GET' : method);
    },
  };
  matchers.set(basePath, matcher);
  return matcher;
}
