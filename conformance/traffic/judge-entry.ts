/**
 * The checks of one recorded entry, on both sides. The client's: what the
 * contract refuses in the request (no key, a `limit` out of range, a body that
 * is not a NewPet, getPet after its sunset). The server's: the suite's own
 * response checks (checks.ts), with the statuses allowed for what the request
 * was: a 2xx for a refused request, or a 400 for an accepted one, fails.
 * @see ../../docs/conformance.md "Judging recorded traffic"
 */
import {
  describeSchemaErrors,
  getValidator,
  listPetsLimit,
  type OperationInfo,
  petStatuses,
  type SchemaName,
  sunsetOf,
} from '../../spec/index.ts';
import {
  checkErrorBody,
  checkJsonMediaType,
  checkNo5xx,
  checkSchema,
  checkStatus,
  checkThat,
  mediaType,
} from '../judge/checks.ts';
import type { CheckResult } from '../types.ts';
import type { RecordedEntry } from './entry.ts';

/** What the judge of one entry needs to know besides the entry. */
interface EntryJudgeOptions {
  strict: boolean;
  /** The date the client's calls are judged at for getPet's sunset (`--as-of`); else each entry's own time. */
  asOf?: Date;
}

/** The client's verdict on a request: its checks, and what the contract makes of it. */
interface ClientVerdict {
  checks: CheckResult[];
  /** No usable bearer key. */
  noKey: boolean;
  /** A parameter or body the contract refuses (a key aside). */
  invalid: boolean;
  /** The body could not be judged (not recorded). */
  bodyUnknown: boolean;
  /** getPet after its sunset. */
  afterSunset: boolean;
  /** getPet with a petId that is not an int64. */
  malformedId: boolean;
  /** createPet with a body that is not `application/json`. */
  badMediaType: boolean;
}

const INT64_MAX = 9223372036854775807n;
/** Read from the spec once: every entry asks. */
const LIMIT = listPetsLimit();
const STATUSES: readonly string[] = petStatuses();
const SUNSET = sunsetOf('getPet');
const NOT_RECORDED = 'not judged: no body recorded';

function checkKey(entry: RecordedEntry): CheckResult {
  const auth = entry.auth;
  if (!auth)
    return checkThat('request key', false, 'no Authorization header: every operation requires `Bearer <API_KEY>`');
  if (auth.scheme.toLowerCase() !== 'bearer')
    return checkThat('request key', false, `Authorization uses the ${JSON.stringify(auth.scheme)} scheme, not Bearer`);
  return checkThat('request key', !auth.empty, auth.empty ? 'Authorization: Bearer with no key' : 'a bearer key');
}

function listChecks(url: URL): CheckResult[] {
  const out: CheckResult[] = [];
  const { minimum, maximum } = LIMIT;
  const limit = url.searchParams.get('limit');
  if (limit !== null) {
    const ok = /^\d{1,15}$/.test(limit) && Number(limit) >= minimum && Number(limit) <= maximum;
    out.push(
      checkThat(
        'request limit',
        ok,
        ok ? `limit=${limit}` : `limit=${JSON.stringify(limit)} is not an integer from ${minimum} to ${maximum}`,
      ),
    );
  }
  const status = url.searchParams.get('status');
  if (status !== null) {
    const ok = STATUSES.includes(status);
    out.push(
      checkThat(
        'request status',
        ok,
        ok ? `status=${status}` : `status=${JSON.stringify(status)} is not one of ${STATUSES.join(', ')}`,
      ),
    );
  }
  return out;
}

function createChecks(entry: RecordedEntry): CheckResult[] {
  if (entry.requestBody !== 'recorded') {
    const why = entry.requestBody === 'none' ? 'no body sent: NewPet is required' : undefined;
    return why
      ? [checkThat('request body', false, why)]
      : [{ name: 'request body', ok: true, info: true, message: NOT_RECORDED }];
  }
  const type = entry.exchange.request.headers['content-type'];
  const out = [
    checkThat(
      'request media type',
      mediaType(type) === 'application/json',
      type === undefined
        ? 'no Content-Type: the body must be application/json'
        : `Content-Type ${JSON.stringify(type)}${mediaType(type) === 'application/json' ? '' : ', not application/json'}`,
    ),
  ];
  let json: unknown;
  try {
    json = JSON.parse(entry.exchange.request.body!);
  } catch {
    out.push(checkThat('request body', false, 'the body is not JSON'));
    return out;
  }
  const validate = getValidator('NewPet');
  const ok = validate(json) as boolean;
  out.push(
    checkThat(
      'request body',
      ok,
      ok ? 'a NewPet' : 'the body is not a NewPet',
      ok ? undefined : describeSchemaErrors(validate.errors).slice(0, 10),
    ),
  );
  return out;
}

function getChecks(entry: RecordedEntry, params: Record<string, string>, options: EntryJudgeOptions): CheckResult[] {
  const id = params.petId ?? '';
  const wellFormed = /^-?\d{1,19}$/.test(id) && BigInt(id) <= INT64_MAX && BigInt(id) >= -INT64_MAX - 1n;
  const sunset = SUNSET;
  const at = options.asOf ?? new Date(entry.time);
  const after = sunset !== undefined && at.getTime() >= sunset.getTime();
  return [
    checkThat('request petId', wellFormed, wellFormed ? `petId ${id}` : `petId ${JSON.stringify(id)} is not an int64`),
    checkThat(
      'request sunset',
      !after,
      after
        ? `getPet is called on ${at.toISOString().slice(0, 10)}${options.asOf ? ' (--as-of)' : ''}, on or after its sunset ${sunset!.toISOString().slice(0, 10)}: use GET /pets`
        : `before the sunset ${sunset?.toISOString().slice(0, 10) ?? '(none)'}`,
    ),
  ];
}

/** The client's checks of `entry`'s request to `op`, and what they make of it. */
export function judgeClient(
  entry: RecordedEntry,
  op: OperationInfo,
  params: Record<string, string>,
  options: EntryJudgeOptions,
): ClientVerdict {
  const url = new URL(entry.exchange.request.url);
  const key = checkKey(entry);
  const own =
    op.operationId === 'listPets'
      ? listChecks(url)
      : op.operationId === 'createPet'
        ? createChecks(entry)
        : getChecks(entry, params, options);
  const failed = (name: string) => own.some((c) => c.name === name && !c.ok);
  return {
    checks: [key, ...own],
    noKey: !key.ok,
    invalid: own.some((c) => !c.ok && c.name !== 'request sunset'),
    bodyUnknown: own.some((c) => c.info === true),
    afterSunset: failed('request sunset'),
    malformedId: failed('request petId'),
    badMediaType: failed('request media type'),
  };
}

/** The statuses the suite accepts for a request of this verdict (as its cases do), or undefined when any goes. */
function allowedStatuses(op: OperationInfo, v: ClientVerdict): number[] | undefined {
  // After the sunset a server may still serve getPet, or answer 404 or 410: not checked.
  if (v.afterSunset) return undefined;
  const documented = op.statuses;
  if (v.bodyUnknown) return v.noKey ? [401, 400] : documented;
  if (v.noKey) return v.invalid || v.malformedId ? [400, 401, ...(v.malformedId ? [404] : [])] : [401];
  if (v.malformedId) return [400, 401, 404];
  if (!v.invalid) return documented.filter((s) => s < 400 || s === 401 || (op.operationId === 'getPet' && s === 404));
  // A listing with a limit or status out of range: 400, or 200 (information in the suite); a bad body: 400 (or 415).
  return op.operationId === 'listPets' ? [200, 400, 401] : v.badMediaType ? [400, 401, 415] : [400, 401];
}

/** The schema an answer's body must match: the documented 2xx one, or Error for any 4xx. */
function schemaOf(op: OperationInfo, status: number): SchemaName | undefined {
  if (status >= 400 && status < 500) return 'Error';
  if (status === 200) return op.operationId === 'listPets' ? 'Pets' : op.operationId === 'getPet' ? 'Pet' : undefined;
  if (status === 201) return op.operationId === 'createPet' ? 'Pet' : undefined;
  return undefined;
}

/** The server's checks of `entry`'s answer, given the client's verdict on the request. */
export function judgeServer(
  entry: RecordedEntry,
  op: OperationInfo,
  v: ClientVerdict,
  options: EntryJudgeOptions,
): CheckResult[] {
  const ex = entry.exchange;
  const res = ex.response!;
  const out: CheckResult[] = [checkNo5xx(ex)];
  const allowed = allowedStatuses(op, v);
  if (allowed && res.status < 500) out.push(checkStatus(ex, allowed));
  const schema = schemaOf(op, res.status);
  if (schema === undefined || res.status >= 500 || (allowed && !allowed.includes(res.status))) return out;
  out.push(checkJsonMediaType(ex));
  if (!entry.responseBody) {
    out.push({
      name: schema === 'Error' ? 'Error body' : `schema ${schema}`,
      ok: true,
      info: true,
      message: NOT_RECORDED,
    });
    return out;
  }
  if (schema === 'Error') out.push(...checkErrorBody(ex));
  else out.push(checkSchema(ex, schema, options.strict && (schema === 'Pet' || schema === 'Pets')));
  if (op.operationId === 'createPet' && res.status === 201 && !v.invalid && !v.bodyUnknown)
    out.push(...checkEcho(entry));
  return out;
}

/** A created Pet answers the fields sent (as the suite's createPet echo check). */
function checkEcho(entry: RecordedEntry): CheckResult[] {
  const got = entry.exchange.response?.json as Record<string, unknown> | undefined;
  if (got === null || typeof got !== 'object') return [];
  const sent = JSON.parse(entry.exchange.request.body!) as Record<string, unknown>;
  const changed = (['name', 'categoryId', 'status'] as const).filter(
    (k) => k in sent && JSON.stringify(sent[k]) !== JSON.stringify(got[k]),
  );
  return [
    checkThat(
      'echo',
      changed.length === 0,
      changed.length === 0
        ? 'the fields sent'
        : changed
            .map((k) => `${k} sent ${JSON.stringify(sent[k])}, answered ${JSON.stringify(got[k]) ?? 'absent'}`)
            .join('; '),
    ),
  ];
}

/** getPet's deprecation headers on a 200 (advice, as the suite's getPet.deprecation case). */
export function deprecationChecks(entry: RecordedEntry): CheckResult[] {
  const h = entry.exchange.response?.headers ?? {};
  const sunset = SUNSET;
  const when = h.sunset === undefined ? Number.NaN : Date.parse(h.sunset);
  const start = sunset?.getTime() ?? Number.NaN;
  return [
    checkThat(
      'Deprecation',
      h.deprecation !== undefined,
      h.deprecation === undefined ? 'no Deprecation header (RFC 9745)' : `Deprecation: ${h.deprecation}`,
    ),
    checkThat(
      'Sunset',
      when >= start && when < start + 86_400_000,
      h.sunset === undefined ? 'no Sunset header (RFC 8594)' : `Sunset: ${h.sunset}; expected ${sunset?.toUTCString()}`,
    ),
  ];
}
