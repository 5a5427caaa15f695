/**
 * The control endpoints under `/__control`, outside the API and with no key:
 * state (reset, pets), scenarios, the request journal, health and the mock's
 * OpenAPI profile. Each mirrors an in-process method of the mock.
 * @see ../../docs/mock.md "Control endpoints"
 */
import { type AuthFailure, createAuthenticator } from './auth.ts';
import { PetstoreMockError } from './errors.ts';
import { describePath, findInexactInteger } from './exact-numbers.ts';
import type { Answer, Layer, RequestContext } from './layers.ts';
import type { PetstoreMock } from './petstore-mock.ts';
import {
  type ApiResponse,
  ErrorCode,
  errorResponse,
  isJsonMediaType,
  jsonResponse,
  refuseContentCoding,
} from './responses.ts';
import { SessionError, type Sessions } from './sessions.ts';

/** Path prefix of the control endpoints. */
export const CONTROL_PREFIX = '/__control';

/** What the control endpoints read besides the user's {@link PetstoreMock}: the fast forms of two of its answers, and the profile. */
export interface ControlExtras {
  /** The pets as JSON text (what `mock.pets.all()` gives, serialised without building objects); a promise on a database store. */
  petsJson(): string | Promise<string>;
  /** The answer for a store call that failed later (a database's: 503, or 507). */
  storeFailure: (error: unknown) => ApiResponse;
  /** How many journal entries were dropped to make room. */
  journal: { readonly dropped: number };
  /** The mock's OpenAPI profile, as JSON text. */
  profile(): string;
  /** The key every control endpoint but health requires (`Authorization: Bearer <key>`); none: open. */
  controlKey?: string;
  /** The mock's sessions (`/__control/sessions`); none inside a session, which holds no sessions of its own. */
  sessions?: Sessions;
}

type Run = (context: RequestContext) => Answer;

/** `then()` once `done` has happened: at once in memory, once its promise settles on a database store. */
function after(done: void | Promise<void> | string | Promise<string>, then: (value: string) => ApiResponse): Answer {
  return done instanceof Promise ? done.then((value) => then(value ?? '')) : then(done ?? '');
}

/** `then(value)` once `value` is there: at once, or once its promise settles. */
function afterValue<T>(value: T | Promise<T>, then: (value: T) => ApiResponse): Answer {
  return value instanceof Promise ? value.then(then) : then(value);
}

const ok = (value: unknown, status = 200): ApiResponse => jsonResponse(status, JSON.stringify(value));
const noContent = (): ApiResponse => ({ status: 204, headers: {}, body: '' });

function routes(t: PetstoreMock, x: ControlExtras): Record<string, Record<string, Run>> {
  return {
    reset: { POST: () => after(t.reset(), () => ok({ reset: true, pets: t.pets.size })) },
    pets: {
      GET: () => after(x.petsJson(), (json) => jsonResponse(200, json)),
      PUT: (c) =>
        withJson(c, (pets, text) => {
          const inexact = findInexactInteger(
            text,
            2,
            (p) => p.length === 2 && (p[1] === 'id' || p[1] === 'categoryId'),
          );
          if (inexact && Array.isArray(pets))
            return errorResponse(
              400,
              ErrorCode.invalidBody,
              `${describePath('pets', inexact.path)} must be kept exactly: write an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (got ${inexact.text})`,
            );
          return after(t.replacePets(pets as never), () => ok({ replaced: true, pets: t.pets.size }));
        }),
    },
    health: { GET: () => jsonResponse(200, '{"status":"ok"}') },
    scenarios: {
      GET: () => ok(t.scenarios.list()),
      POST: (c) => withJson(c, (input) => ok(t.scenarios.add(input as never), 201)),
      DELETE: () => (t.scenarios.clear(), noContent()),
    },
    requests: {
      GET: (c) => journalPage(t, x.journal.dropped, new URLSearchParams(c.query)),
      DELETE: () => (t.clearRequests(), noContent()),
    },
    'openapi.json': { GET: () => jsonResponse(200, x.profile()) },
    pact: {
      GET: (c) => {
        const query = new URLSearchParams(c.query);
        const include = query.get('include');
        const options = {
          consumer: query.get('consumer') ?? '',
          provider: query.get('provider') ?? '',
          include: include === null || include === '' ? [] : include.split(','),
          deprecationHeaders: query.get('deprecationHeaders') === 'true',
          ...(query.has('paths') ? { paths: query.get('paths') } : {}),
        };
        return ok(t.pact(options as never));
      },
      DELETE: () => (t.clearPact(), noContent()),
    },
    'provider-states': {
      POST: (c) => withJson(c, (change) => afterValue(t.setProviderState(change as never), (applied) => ok(applied))),
    },
    coverage: {
      GET: () => ok(t.coverage()),
      DELETE: () => (t.clearCoverage(), noContent()),
    },
    ...(x.sessions === undefined ? {} : { sessions: sessionRoutes(x.sessions) }),
  };
}

/** `GET` (the live sessions) and `POST` (a new one, `{"name"?}`: its name and base URL) on `/__control/sessions`. */
function sessionRoutes(sessions: Sessions): Record<string, Run> {
  const create = (name: unknown) => {
    const session = sessions.create(name);
    const control = `${session.url.slice(0, -'/v1'.length)}/__control`;
    return ok({ name: session.name, url: session.url, control, header: { 'Petstore-Session': session.name } }, 201);
  };
  return {
    GET: () => ok(sessions.list()),
    POST: (c) =>
      // No body is a session with a generated name; a body is JSON, as every control body is.
      c.request.body === undefined || c.request.body.length === 0
        ? create(undefined)
        : withJson(c, (input) =>
            typeof input === 'object' && input !== null && !Array.isArray(input)
              ? create((input as { name?: unknown }).name)
              : errorResponse(
                  400,
                  ErrorCode.invalidBody,
                  'the body is {"name"?: string}, or none for a generated name',
                ),
          ),
  };
}

function sessionItem(sessions: Sessions, name: string): Record<string, Run> {
  return {
    DELETE: () =>
      sessions.end(name)
        ? noContent()
        : errorResponse(404, ErrorCode.sessionNotFound, `no live session ${name.slice(0, 64)}`),
  };
}

/** Answers `/__control/...` itself, on the user's own mock object; passes every other request on. */
export function controlLayer(targets: PetstoreMock, extras: ControlExtras): Layer {
  const table = routes(targets, extras);
  const prefix = `${CONTROL_PREFIX}/`;
  const authorize = extras.controlKey === undefined ? undefined : createAuthenticator([extras.controlKey]);
  return (context, next) => {
    if (!context.path.startsWith(prefix)) return next(context);
    const [name = '', id, ...more] = context.path.slice(CONTROL_PREFIX.length + 1).split('/');
    const methods: Record<string, Run> | undefined =
      id === undefined
        ? table[name]
        : name === 'scenarios' && id !== '' && more.length === 0
          ? scenarioItem(targets, id)
          : name === 'sessions' && extras.sessions && id !== '' && more.length === 0
            ? sessionItem(extras.sessions, id)
            : undefined;
    if (!methods || !Object.hasOwn(table, name)) return next(context);
    // A preflight carries no credentials (CORS answers it), and a load balancer's health probe has none.
    const open = context.request.method === 'OPTIONS' || (name === 'health' && id === undefined);
    if (authorize && !open) {
      const failure = authorize(headerValue(context.request.headers.authorization));
      if (failure !== null) return controlKeyRefusal(failure);
    }
    return dispatch(methods, context, extras.storeFailure);
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

/** The 401 a control request without the control key gets: which key, and how to send it. */
function controlKeyRefusal(failure: Exclude<AuthFailure, null>): ApiResponse {
  const response = errorResponse(
    401,
    ErrorCode.controlKeyRequired,
    failure === 'invalid'
      ? 'control key invalid'
      : 'the control endpoints need the control key: send Authorization: Bearer <CONTROL_KEY> (PETSTORE_CONTROL_KEY, not an API key)',
  );
  response.headers['www-authenticate'] =
    `Bearer realm="petstore-control"${failure === 'invalid' ? ', error="invalid_token"' : ''}`;
  return response;
}

/**
 * `GET /__control/requests`: the entries (`?method`, `?path`), a page at a time with `?since=SEQ&limit=N`;
 * `Link: rel="next"` when more follow, and `Journal-Dropped` says how many entries were dropped to make room.
 */
function journalPage(mock: PetstoreMock, dropped: number, query: URLSearchParams): ApiResponse {
  const since = wholeNumber(query.get('since'));
  const limit = wholeNumber(query.get('limit'));
  if (Number.isNaN(since) || Number.isNaN(limit) || limit === 0)
    return errorResponse(
      400,
      ErrorCode.invalidParameter,
      'since must be an integer from 0 (a sequence number), limit an integer from 1',
    );
  const filter = { method: query.get('method') ?? undefined, path: query.get('path') ?? undefined, since, limit };
  const entries = mock.requests(filter);
  const headers: Record<string, string> = { 'journal-dropped': String(dropped) };
  const last = entries.at(-1);
  if (limit !== undefined && entries.length === limit && last !== undefined) {
    const next = new URLSearchParams(query);
    next.set('since', String(last.seq));
    // A query-only reference (RFC 3986 §5.2): right under whatever path the adapter mounts the mock.
    headers.link = `<?${next}>; rel="next"`;
  }
  return jsonResponse(200, JSON.stringify(entries), headers);
}

/** A query parameter as a whole number; undefined when absent, NaN when not one. */
function wholeNumber(text: string | null): number | undefined {
  if (text === null) return undefined;
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

function scenarioItem(t: PetstoreMock, id: string): Record<string, Run> {
  return {
    DELETE: () => (t.scenarios.remove(id) ? noContent() : errorResponse(404, ErrorCode.notFound, `no scenario ${id}`)),
  };
}

function dispatch(
  methods: Record<string, Run>,
  context: RequestContext,
  storeFailure: (error: unknown) => ApiResponse,
): Answer {
  const allow = Object.keys(methods);
  if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
  const method = context.request.method === 'HEAD' ? 'GET' : context.request.method;
  if (context.request.method === 'OPTIONS')
    return { status: 204, headers: { allow: [...allow, 'OPTIONS'].join(', ') }, body: '' };
  const run = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!run)
    return errorResponse(
      405,
      ErrorCode.methodNotAllowed,
      `${context.request.method} is not allowed on ${context.path}; allowed: ${allow.join(', ')}`,
      {
        allow: allow.join(', '),
      },
    );
  const refused = (error: unknown, later = false): ApiResponse => {
    if (!(error instanceof PetstoreMockError)) {
      // Only a store answers later: what failed there is the store's; a throw at once is a bug, not hidden.
      if (later) return storeFailure(error);
      throw error;
    }
    if (error.code === 'PETSTORE_MOCK_STORE_FULL') return errorResponse(507, ErrorCode.storeFull, error.message);
    if (error instanceof SessionError) return error.response();
    const code =
      error.code === 'PETSTORE_MOCK_INVALID_SCENARIO'
        ? ErrorCode.invalidScenario
        : error.code === 'PETSTORE_MOCK_BAD_OPTION'
          ? ErrorCode.invalidParameter
          : ErrorCode.invalidBody;
    return errorResponse(400, code, error.message);
  };
  try {
    const answer = run(context);
    return answer instanceof Promise ? answer.catch((error) => refused(error, true)) : answer;
  } catch (error) {
    return refused(error);
  }
}

/**
 * Parses the body as JSON and hands it to `use`; a missing or malformed body is a 400 Error. Only
 * `application/json` is taken (415 otherwise), so a page on another origin cannot send one without a
 * preflight, which the CORS layer refuses.
 */
function withJson(context: RequestContext, use: (value: unknown, text: string) => Answer): Answer {
  const { body, headers } = context.request;
  if (context.request.bodyTooLarge)
    return errorResponse(413, ErrorCode.payloadTooLarge, 'request body is larger than the limit');
  const type = Array.isArray(headers['content-type']) ? headers['content-type'].join(', ') : headers['content-type'];
  if (!isJsonMediaType(type))
    return errorResponse(
      415,
      ErrorCode.unsupportedMediaType,
      `the control endpoints take Content-Type: application/json only, got ${JSON.stringify(type ?? '')}`,
    );
  const coded = refuseContentCoding(headers['content-encoding']);
  if (coded) return coded;
  if (body === undefined || body.length === 0)
    return errorResponse(400, ErrorCode.invalidBody, 'a JSON body is required');
  let value: unknown;
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    value = JSON.parse(text);
  } catch (error) {
    return errorResponse(400, ErrorCode.malformedJson, `request body is not valid JSON: ${(error as Error).message}`);
  }
  return use(value, text);
}
