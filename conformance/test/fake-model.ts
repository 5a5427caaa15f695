/**
 * The fake Petstore's vocabulary (the rules it can break, the choices it can make, its requests and results), its
 * state and its Error bodies: below the handler, the operations and the bugs, which all use them.
 */
import type { Pet } from '../../spec/index.ts';

/** One documented rule broken on purpose. */
export type Violation =
  | 'list500'
  /**
   * A create that carries a client `id` stores the animal, then answers 500 (a step after the commit fails); once
   * such an animal is stored, every unfiltered listing answers 500. Filtered listings and fetches still show it.
   */
  | 'clientIdStoredThen500'
  /** Every listing without an (undocumented) `page` parameter gets a 400 Error. */
  | 'listRequiresParam'
  | 'listWrongContentType'
  | 'listNotArray'
  | 'limitIgnored'
  | 'defaultLimitIgnored'
  | 'limitOffByOne'
  | 'statusFilterIgnored'
  | 'outOfRangeLimit500'
  | 'unknownStatus500'
  | 'noAuth'
  | 'unauthorizedWithoutBody'
  | 'errorStatusMismatch'
  | 'errorsAsTextPlain'
  | 'wrongKeyAccepted'
  | 'basicAccepted'
  | 'emptyTokenAccepted'
  /** The scheme is optional: `Authorization: <key>`, the key alone, passes (an optional "Bearer " stripped first). */
  | 'schemeOptional'
  /** The key is read from the header's eighth character on, the seven before never checked: `Bearer:<key>` passes. */
  | 'schemeSkipped'
  /** Only the token's length is compared with the key's (a constant-time compare whose loop never runs). */
  | 'keyLengthOnly'
  /** The token is compared with the key as far as the shorter reaches: a prefix of the key, or the key run on, passes. */
  | 'keyPrefixCompare'
  /** The token is compared with the key without regard to case. */
  | 'keyCaseInsensitive'
  /** "bearer" (lowercase) is a second path that never compares the key: any token under it passes. */
  | 'lowercaseSchemeUnchecked'
  /** The scheme is matched by its end, not as a whole token: "xbearer <key>" passes. */
  | 'schemeSuffixMatch'
  /** A 401 for a wrong key has no WWW-Authenticate challenge (the one for a missing key does). */
  | 'noChallengeForWrongKey'
  /** GET /pets/{petId} looks the animal up before the key: a wrong key gets 404 for an unknown id, 401 for a known one. */
  | 'lookupBeforeAuth'
  | 'create200'
  | 'createNoEcho'
  | 'createdNotStored'
  | 'sameIdTwice'
  | 'noValidation'
  | 'floatCategoryAccepted'
  | 'emptyBodyAccepted'
  | 'clientIdOverwrites'
  | 'getUnknown200'
  | 'notFoundWithoutBody'
  | 'malformedId500'
  /** The animal with the smallest id is never found (a search that starts past the first position): 404. */
  | 'firstPetNotFound'
  | 'categoryIdAsString'
  | 'missingId'
  /** A Pet without a status is written with `"status": null` (a serialiser that writes every field). */
  | 'statusNull'
  | 'hangOnGet'
  | 'hugeListBody'
  | 'garbageOnCreate'
  | 'resetOnCreate'
  | 'bigCategoryRounded'
  | 'inexactCategoryRounded'
  /** The exact-number check reads the first `"categoryId"` in the text, one nested in another member, and stores the top-level one rounded. */
  | 'categoryIdScannedFirst'
  /** categoryId kept in a 32-bit integer (a Java `int`): one beyond 2^31 - 1 gets 400, though int64 holds it. */
  | 'categoryIdInt32'
  /** categoryId checked by its truth (`!body.categoryId`): 0 is refused as missing. */
  | 'categoryIdZeroMissing'
  | 'petsInProtoKey'
  /** A body that is not UTF-8 gets a 500 (aiohttp's UnicodeDecodeError slipping past `except json.JSONDecodeError`). */
  | 'notUtf8Body500'
  /** Member names matched in any case: `{"NAME": …, "CATEGORYID": 1}` creates an animal (fake-decoders.ts). */
  | 'caseInsensitiveMembers'
  /** Only the first JSON value is read: `{…}xyz` and `{…}{"x":1}` create an animal. */
  | 'firstValueDecoder'
  /** `"status": true` passes a loose comparison with the enumeration and is stored. */
  | 'looseEnumStatus'
  /** Integers beyond int64 saturate: categoryId 2^63 is stored as 2^63 - 1, petId 2^63 is looked up as 2^63 - 1. */
  | 'saturatingIds'
  /** `limit[]=…` or `status[]=…` gets a 500 (a framework hands the handler an array). */
  | 'arrayQuery500'
  /** A query with a broken percent-escape (`limit=%`) gets the query parser's HTML 400, no Error. */
  | 'badEscapeHtml400'
  /** The query is split by hand and never percent-decoded: `limit=%33` is read as the invalid limit `%33`. */
  | 'queryNotDecoded'
  /** Content-Type compared whole: `application/json; charset=utf-8` or `Application/JSON` gets a 415 Error. */
  | 'contentTypeComparedWhole'
  /** A body with no Content-Type gets a 500 (the type check reads the missing header). */
  | 'noContentType500'
  /** petId read with a lenient integer parse: `1abc`, `1%00`, `1%0A`, `1e0` answer animal 1. */
  | 'lenientIdParse'
  /** A petId that is not digits gets the router's HTML 404 before the key is checked, whatever the key. */
  | 'routerHtml404'
  /** A listing is answered with the JSON value `null` (Go's nil slice). */
  | 'listNull'
  /** A create sent with `"status": "sold"` answers it as sent but stores `available` (an enum column without it). */
  | 'soldStoredAsAvailable'
  /** petId read as Python's int() reads it: `2_1` answers animal 21. */
  | 'underscoreIdParse'
  /** categoryId read by a hand-written parse that stops at `.` or `e`: `1e15` is stored as 1. */
  | 'integerNotationMisread'
  /** Listings kept until the next create under their `limit` alone: `status=sold&limit=4` after `limit=4` gets that listing. */
  | 'listingCacheByLimit';

/**
 * Bugs no fixed case sends a request for, each breaking one documented rule for some values only: the
 * generated cases must find each and shrink it to the smallest request or sequence.
 */
export type GeneratedBug =
  /** 500 for a create whose categoryId is 0 and name empty (createPet.categoryId.int64 sends 0 with a name). */
  | 'categoryIdZero500'
  /** Names longer than 64 characters (code points) are cut to 64 (the answer and the store). */
  | 'longNameCut'
  /** One item too many for a limit from 37 to 42. */
  | 'limitOneTooManySome'
  /** An animal whose name holds a slash is answered 201 but never stored. */
  | 'slashNameLost'
  /** status=pending is ignored when limit is from 51 to 99 (a combination of parameters). */
  | 'pendingFilterIgnoredMidLimit'
  /** Once the store holds more than 170 animals, each create drops the animal created just before it. */
  | 'evictWhenCrowded'
  /** 500 for a negative petId. */
  | 'negativeId500'
  /** A status in another case (`AVAILABLE`) is accepted on create. */
  | 'statusCaseInsensitive'
  /** 500 for a limit beyond 2^31 - 1 (a 32-bit parse). */
  | 'bigLimit500'
  /** A status with spaces around it gets a 400 that is not an Error. */
  | 'paddedStatusBareError'
  /** status=sold with a limit from 10 to 15 repeats the first item in place of the last. */
  | 'duplicateSoldPage'
  /** Animals with a negative categoryId are stored and fetchable, but never listed. */
  | 'negativeCategoryUnlisted'
  /** A name holding `<` gets a 400 HTML page, not an Error. */
  | 'markupNameBareError'
  /** A create whose name an animal already has overwrites that animal, under its id. */
  | 'sameNameSameId'
  /** getPet keeps only the low 32 bits of petId. */
  | 'bigIdWrapped';

/** Other choices the interface leaves open; none of them is a violation. */
export interface FakeChoices {
  /** List in descending id order. */
  descending?: boolean;
  /** Answer an invalid `limit` with 200 (clamped to 1..100, default when not a number) and an unknown status with 200 []. */
  lenient?: boolean;
  /** 404 rather than 400 for malformed ids. */
  malformedId404?: boolean;
  /** 415 rather than 400 for a non-JSON Content-Type. */
  nonJson415?: boolean;
  /**
   * Parse the body as JSON whatever its Content-Type (Flask's `get_json(force=True)`): a valid NewPet sent as
   * `text/plain` is created. Advice, not a violation: the contract never says another media type is refused.
   */
  nonJsonParsed?: boolean;
  /** Pets carry fields the spec does not name. */
  extraFields?: boolean;
  /** Use this code string in every Error. */
  errorCode?: string;
  /** Ids start above 2^32. */
  bigIds?: boolean;
  /** No WWW-Authenticate, Deprecation or Sunset headers. */
  noAdviceHeaders?: boolean;
  /** Only `Bearer` exactly, not `bearer`. */
  caseSensitiveScheme?: boolean;
  /** Keep a categoryId beyond 2^53 exactly (read the raw digits, echo them as sent) rather than refuse it. */
  bigCategoryExact?: boolean;
  /**
   * Keep a categoryId whose JSON text is not exactly an integer (`4503599627370496.5`) as that text, a decimal
   * column, and echo it as sent, rather than refuse it: "kept exactly", which the table allows.
   */
  inexactKeptExact?: boolean;
  /** Store the members NewPet does not name (all but a client `id`) and echo them with the animal. */
  keepUnknown?: boolean;
  /** Refuse a create that carries a client `id` with a 400 Error, rather than ignore the id. */
  clientId400?: boolean;
  /** Refuse with a 400 Error a name that is empty, longer than 64 characters or holds control characters. */
  refuseUnusualNames?: boolean;
  /** Validate before checking the key (express.json() before the auth middleware): a wrong key and an invalid request get 400. */
  validationBeforeAuth?: boolean;
  /**
   * A router that takes only digits as petId (Flask's `<int:pet_id>`): any other segment gets the unknown route's
   * 404 Error before the key is checked, the same with no key, a wrong key and the right key.
   */
  routerDigitsOnly?: boolean;
  /**
   * Take categoryId only when written as a plain integer (Go's `encoding/json` into an int64): `1e15` and `0.0` get a
   * 400 Error. Advice, not a violation: RFC 8259 §6 lets a decoder limit the numbers it accepts.
   */
  integerNotationRefused?: boolean;
  /** Route the request target's text as sent (Python's http.server): a target in absolute form gets the 404 Error. */
  absoluteFormRefused?: boolean;
  /** Test-only, not a choice: echo the Authorization header in a header and in bodies, to prove reports still hide the key. */
  echoAuthorization?: boolean;
}

/** A request as the fake handler sees it. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Set when the body's bytes are not UTF-8 (`body` then holds U+FFFD in their place). */
  bodyNotUtf8?: boolean;
}

/** A plain response, or something a broken server does instead. */
export type FakeResult =
  | { status: number; headers: Record<string, string>; body: string }
  | { action: 'hang' | 'garbage' | 'reset' | 'huge' };

/** What the fake's operations share: its key, switches and store. */
export interface FakeState {
  apiKey: string;
  broken: ReadonlySet<Violation>;
  bugs: ReadonlySet<GeneratedBug>;
  c: FakeChoices;
  pets: Map<number, Pet>;
  nextId: number;
  /** The id of the last animal created (for the evictWhenCrowded bug). */
  lastCreated?: number;
  /** Ids of animals the clientIdStoredThen500 violation stored behind a 500. */
  storedBehind500?: Set<number>;
  /** Listings by `limit` alone until the next create (the listingCacheByLimit violation). */
  listings?: Map<number, FakeResult>;
}

/** An Error response (broken on purpose when a violation says so). */
export function error(
  s: FakeState,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): FakeResult {
  const type = s.broken.has('errorsAsTextPlain') ? 'text/plain' : 'application/json';
  const body = {
    code: s.c.errorCode ?? code,
    message,
    status: s.broken.has('errorStatusMismatch') ? status + 1 : status,
  };
  return { status, headers: { ...headers, 'content-type': type }, body: JSON.stringify(body) };
}
