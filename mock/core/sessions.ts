/**
 * Sessions: several whole mocks on one port, each its own pets, scenarios,
 * journal, rate-limit buckets, coverage and Pact recording, reached by URL
 * (`/sessions/{name}/v1/...`, `/sessions/{name}/__control/...`) or by the
 * `Petstore-Session` header. A session is a mock made by the same createMock
 * with the same options (so the same pets); this file keeps them under their
 * names, bounds them, and hands a request to one before its holder makes any
 * context, so that the request takes one pipeline, the session's. A request
 * outside any session pays one header lookup and one character compared.
 * @see ../../docs/mock.md "Sessions"
 */
import type { CoverageFeed } from './coverage.ts';
import { PetstoreMockError } from './errors.ts';
import type { Answer, Divert } from './layers.ts';
import { TextMemo } from './memo.ts';
import type { MockCore, PetstoreSession } from './petstore-mock.ts';
import { type ApiRequest, type ApiResponse, ErrorCode, errorResponse } from './responses.ts';

/** Where the URL form starts: `/sessions/{name}/v1/pets`. */
export const SESSIONS_PATH = '/sessions/';

/** The request header that puts a request in a session, for a client whose base URL is fixed (lower case, as adapters give it). */
const SESSION_HEADER = 'petstore-session';

/** Live sessions a mock keeps when not told otherwise. */
export const DEFAULT_MAX_SESSIONS = 100;

/** Largest `sessions.max`. */
export const MAX_SESSIONS = 10_000;

/** A session with no request for this long (15 minutes) is ended, when not told otherwise. */
export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;

/** What a session's name may be: letters, digits, `_` and `-`, 1 to 64 of them, so it never leaves its URL segment. */
const SESSION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

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

/** How a holder hands a request to a session, and reads its coverage (not enumerable). */
export interface SessionRoutes {
  /** Answers a request that named the session by header, its URLs under the mock's own base. */
  answerByHeader: (request: ApiRequest, path: string, query: string) => Answer;
  /** Answers a request that named it by URL: `path` is what follows `/sessions/{name}`, its URLs written under that. */
  answerByUrl: (request: ApiRequest, path: string, query: string) => Answer;
  /** The session's coverage as its holder adds it to its own. */
  coverageFeed: CoverageFeed;
}

/** A session's mock as its holder keeps it: the user's {@link PetstoreSession}, and how to answer. */
export type SessionCore = MockCore & PetstoreSession & SessionRoutes;

/** What {@link createSessions} needs from the mock that holds them. */
interface SessionHost {
  /** A new session's mock, made by createMock with the host's options; `end` is what its `close()` does. */
  make(name: string, end: () => Promise<void>): SessionCore;
  /** The clock (ms). */
  now(): number;
  /** Why this mock cannot hold sessions (a database store), or undefined. */
  unsupported?: string | undefined;
  /** A session has ended (its coverage stays counted in its holder's). */
  ended(session: SessionCore): void;
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
  /** The live sessions' mocks, as they are (no sweep: an idle one not yet ended is still live). */
  live(): IterableIterator<SessionCore>;
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
    const session = live.get(name);
    if (session === undefined) return false;
    live.delete(name);
    ended.keep(name, why);
    host.ended(session.mock);
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
      // A live name was checked when it was made: only one not found is checked, to say why.
      const session = live.get(name);
      if (session === undefined) checkName(name);
      else {
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
    *live() {
      for (const session of live.values()) yield session.mock;
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
 * Takes a request in a session to that session's own pipeline, before its holder makes any context: by URL
 * (`/sessions/{name}/...`, the session writing its URLs under that segment itself) or by {@link SESSION_HEADER};
 * every other request stays with the holder after one header lookup and one character compared. A refused one (an
 * unknown or ended session, a bad name) is answered by `refuse`, through the holder's CORS.
 */
export function sessionDivert(
  sessions: Sessions,
  refuse: (request: ApiRequest, path: string, query: string, response: ApiResponse) => Answer,
): Divert {
  return (request, target, path, query) => {
    const header = request.headers[SESSION_HEADER];
    // `/sessions/` and `/v1/` differ at their second character: one compare before the prefix check.
    const byUrl = path.charCodeAt(1) === 115 && path.startsWith(SESSIONS_PATH);
    if (header === undefined && !byUrl) return undefined;
    // The sessions' own controls belong to the mock that holds them, whatever header a client sends along.
    if (!byUrl && path.startsWith('/__control/sessions')) return undefined;
    try {
      if (!byUrl) {
        if (Array.isArray(header))
          throw new SessionError(400, ErrorCode.invalidSessionName, 'send one Petstore-Session header, not several');
        return sessions.use(header as string).answerByHeader(request, path, query);
      }
      const after = path.indexOf('/', SESSIONS_PATH.length);
      const name = after === -1 ? path.slice(SESSIONS_PATH.length) : path.slice(SESSIONS_PATH.length, after);
      // Taken as sent: an escape (`%2F`, `%2E`) is no name character, so it is refused, never decoded into a `/`.
      const session = sessions.use(name);
      if (header !== undefined && header !== name)
        throw new SessionError(
          400,
          ErrorCode.invalidSessionName,
          `the URL names session ${name}, the Petstore-Session header another`,
        );
      if (after === -1)
        return refuse(
          request,
          path,
          query,
          errorResponse(404, ErrorCode.routeNotFound, `no route for ${request.method} ${path}`),
        );
      // The journal keeps the target as the session saw it: the request is the adapter's own, made for this one call
      // (as the handler sets its parsed body on it), so it is changed in place rather than copied.
      request.url = target.slice(after);
      return session.answerByUrl(request, path.slice(after), query);
    } catch (error) {
      if (error instanceof SessionError) return refuse(request, path, query, error.response());
      throw error;
    }
  };
}
