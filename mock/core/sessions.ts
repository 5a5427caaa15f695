/**
 * Sessions: several whole mocks on one port, each its own pets, scenarios,
 * journal, rate-limit buckets, coverage and Pact recording, reached by URL
 * (`/sessions/{name}/v1/...`, `/sessions/{name}/__control/...`) or by the
 * `Petstore-Session` header. A session is a mock made by the same createMock
 * with the same options (so the same pets); this file keeps them under their
 * names, bounds them, and routes a request to one before the rest of the
 * pipeline. A request outside any session pays one header lookup and one
 * prefix check.
 * @see ../../docs/mock.md "Sessions"
 */
import { PetstoreMockError } from './errors.ts';
import { type Answer, type Layer, thenAnswer } from './layers.ts';
import { TextMemo } from './memo.ts';
import type { MockCore, PetstoreSession } from './petstore-mock.ts';
import { type ApiResponse, ErrorCode, errorResponse } from './responses.ts';

/** Where the URL form starts: `/sessions/{name}/v1/pets`. */
export const SESSIONS_PATH = '/sessions/';

/** The request header that puts a request in a session, for a client whose base URL is fixed (lower case, as adapters give it). */
export const SESSION_HEADER = 'petstore-session';

/** Live sessions a mock keeps when not told otherwise. */
export const DEFAULT_MAX_SESSIONS = 100;

/** Largest `sessions.max`. */
export const MAX_SESSIONS = 10_000;

/** A session with no request for this long (15 minutes) is ended, when not told otherwise. */
export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;

/** What a session's name may be: letters, digits, `_` and `-`, 1 to 64 of them, so it never leaves its URL segment. */
export const SESSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** How many ended names are remembered, so that a late request hears "ended" rather than "unknown". */
const ENDED_REMEMBERED = 1_000;

/** Options for sessions (`MockOptions.sessions`). */
export interface SessionOptions {
  /** Live sessions at most (1 to 10000; default 100); a creation beyond it is refused (409 `session_limit`). */
  max?: number;
  /** A session with no request for this many ms is ended (default 900000, 15 minutes; 0: never). */
  idleMs?: number;
}

/** A live session as `GET /__control/sessions` lists it. */
export interface SessionInfo {
  name: string;
  /** The session's base URL (the mock's, with `/sessions/{name}` before `/v1`). */
  url: string;
  /** Its pets now. */
  pets: number;
  /** Milliseconds since its last request. */
  idleMs: number;
}

/** A session refused or not found: the HTTP answer it becomes, and the PetstoreMockError in process. */
export class SessionError extends PetstoreMockError {
  constructor(
    readonly status: number,
    readonly errorCode: ErrorCode,
    message: string,
  ) {
    super('PETSTORE_MOCK_SESSION_REFUSED', message);
  }
  /** The Error answer for it. */
  response(): ApiResponse {
    return errorResponse(this.status, this.errorCode, this.message);
  }
}

/** A session's mock as its holder keeps it: the user's {@link PetstoreSession}, and how to answer. */
export type SessionCore = MockCore & PetstoreSession;

/** What {@link createSessions} needs from the mock that holds them. */
export interface SessionHost {
  /** A new session's mock, made by createMock with the host's options; `end` is what its `close()` does. */
  make(name: string, end: () => Promise<void>): SessionCore;
  /** The clock (ms). */
  now(): number;
  /** Why this mock cannot hold sessions (a database store), or undefined. */
  unsupported?: string | undefined;
}

/** The live sessions of one mock. */
export interface Sessions {
  /** Makes one (named, or a generated name); a {@link SessionError} for a bad or taken name, the limit, or a store that cannot. */
  create(name?: unknown): SessionCore;
  /** Ends one; false when none was live under that name. */
  end(name: string): boolean;
  /** The live session by that name, its last use now; a {@link SessionError} (400, 404, 410) otherwise. */
  use(name: string): SessionCore;
  list(): SessionInfo[];
  /** Live sessions now (after ending the idle ones). */
  readonly size: number;
}

/** Keeps the sessions of one mock, within `options`. */
export function createSessions(host: SessionHost, options: SessionOptions = {}): Sessions {
  const max = options.max ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const live = new Map<string, { mock: SessionCore; used: number }>();
  const ended = new TextMemo<string>(ENDED_REMEMBERED, 64);
  let generated = 0;

  const end = (name: string, why: string): boolean => {
    if (!live.delete(name)) return false;
    ended.keep(name, why);
    return true;
  };
  const sweep = () => {
    if (idleMs === 0) return;
    const now = host.now();
    for (const [name, session] of live)
      if (now - session.used > idleMs) end(name, `it had no request for ${Math.round(idleMs / 1000)} s`);
  };
  const nameOf = (name: unknown): string => {
    if (name === undefined) {
      let made: string;
      do made = `s${(++generated).toString(36)}-${Math.floor(Math.random() * 36 ** 6).toString(36)}`;
      while (live.has(made));
      return made;
    }
    checkName(name);
    return name;
  };

  return {
    create(name) {
      if (host.unsupported !== undefined) throw new SessionError(409, ErrorCode.sessionsUnsupported, host.unsupported);
      const chosen = nameOf(name);
      sweep();
      if (live.has(chosen))
        throw new SessionError(
          409,
          ErrorCode.sessionExists,
          `session ${chosen} exists already: end it first, or choose another name`,
        );
      if (live.size >= max)
        throw new SessionError(
          409,
          ErrorCode.sessionLimit,
          `${live.size} sessions are live, the limit (sessions.max, --max-sessions): end one (DELETE /__control/sessions/{name}) or raise the limit`,
        );
      const mock = host.make(chosen, async () => {
        end(chosen, 'its close() was called');
      });
      live.set(chosen, { mock, used: host.now() });
      return mock;
    },
    end: (name) => end(name, 'DELETE /__control/sessions/{name} ended it'),
    use(name) {
      checkName(name);
      const session = live.get(name);
      if (session !== undefined) {
        const now = host.now();
        if (idleMs === 0 || now - session.used <= idleMs) {
          session.used = now;
          return session.mock;
        }
        end(name, `it had no request for ${Math.round(idleMs / 1000)} s`);
      }
      const why = ended.get(name);
      if (why !== undefined) throw new SessionError(410, ErrorCode.sessionEnded, `session ${name} has ended: ${why}`);
      throw new SessionError(
        404,
        ErrorCode.sessionNotFound,
        `no session ${name}: create it first (POST /__control/sessions, or session() in process)`,
      );
    },
    list() {
      sweep();
      const now = host.now();
      return [...live].map(([name, { mock, used }]) => ({
        name,
        url: mock.url,
        pets: mock.pets.size,
        idleMs: now - used,
      }));
    },
    get size() {
      sweep();
      return live.size;
    },
  };
}

/** Throws a {@link SessionError} (400) unless `name` is a {@link SESSION_NAME}. */
function checkName(name: unknown): asserts name is string {
  if (typeof name === 'string' && SESSION_NAME.test(name)) return;
  const shown =
    typeof name === 'string' ? JSON.stringify(name.length > 70 ? `${name.slice(0, 64)}…` : name) : typeof name;
  throw new SessionError(
    400,
    ErrorCode.invalidSessionName,
    `session name ${shown} is not one: 1 to 64 letters, digits, _ or - (nothing that could leave its URL segment)`,
  );
}

/**
 * The layer (just inside CORS) that hands a request in a session to that session's own mock: by URL (the prefix
 * taken off, and put back into `Location` and `Link`) or by {@link SESSION_HEADER}; every other request goes on.
 */
export function sessionLayer(sessions: Sessions, prefix: string): Layer {
  const apiBase = `${prefix}/v1`;
  return (context, next) => {
    const { request } = context;
    const header = request.headers[SESSION_HEADER];
    const byUrl = context.path.startsWith(SESSIONS_PATH);
    if (header === undefined && !byUrl) return next(context);
    // The sessions' own controls belong to the mock that holds them, whatever header a client sends along.
    if (!byUrl && context.path.startsWith('/__control/sessions')) return next(context);
    try {
      if (!byUrl) {
        if (Array.isArray(header))
          throw new SessionError(400, ErrorCode.invalidSessionName, 'send one Petstore-Session header, not several');
        return sessions.use(header as string).fetch(request);
      }
      const after = context.path.indexOf('/', SESSIONS_PATH.length);
      const name =
        after === -1 ? context.path.slice(SESSIONS_PATH.length) : context.path.slice(SESSIONS_PATH.length, after);
      // Taken as sent: an escape (`%2F`, `%2E`) is no name character, so it is refused, never decoded into a `/`.
      const session = sessions.use(name);
      if (header !== undefined && header !== name)
        throw new SessionError(
          400,
          ErrorCode.invalidSessionName,
          `the URL names session ${name}, the Petstore-Session header another`,
        );
      const rest = after === -1 ? '' : context.path.slice(after);
      if (rest === '')
        return errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${context.path}`);
      const url = context.query === '' ? rest : `${rest}?${context.query}`;
      return withSegment(session.fetch({ ...request, url }), apiBase, `${prefix}/sessions/${name}/v1`);
    } catch (error) {
      if (error instanceof SessionError) return error.response();
      throw error;
    }
  };
}

/** The answer with the URLs it writes (`Location`, `Link`) under the session's base (`/sessions/x/v1`) instead of `apiBase`. */
function withSegment(answer: Answer, apiBase: string, sessionBase: string): Answer {
  const move = (target: string) =>
    target === apiBase || target.startsWith(`${apiBase}/`) ? sessionBase + target.slice(apiBase.length) : target;
  return thenAnswer(answer, (response) => {
    const { location, link } = response.headers;
    if (location === undefined && link === undefined) return response;
    const headers = { ...response.headers };
    if (location !== undefined) headers.location = move(location);
    // A query-only reference (the journal's next page) stays: it is relative to the session's URL already.
    if (link !== undefined) headers.link = link.replace(/<([^>]*)>/g, (_, target: string) => `<${move(target)}>`);
    return { ...response, headers };
  });
}
