/**
 * The generated bodies, as fast-check arbitraries built from the spec's
 * NewPet schema: valid NewPets across the whole domain of each property, and
 * bodies that break the schema each way it can be broken.
 * @see ../../docs/contract.md "Resources NewPet"
 */
import fc from 'fast-check';
import { getValidator } from '../../spec/index.ts';
import { hasRawBytes, rawBytes } from '../client/bytes.ts';
import { type BodyValue, INT64, type PropertyInfo, schemaProperties, toJsonText } from './schema.ts';

/** A valid NewPet as generated: each property of the schema, integers as BigInt. */
export type NewPetValue = Record<string, string | bigint>;

/** A body that breaks the NewPet schema: `kind` says how (`missing.name`, `type.categoryId`, `malformed`, ...). */
export interface InvalidBody {
  kind: string;
  value: BodyValue;
  /** For `malformed`: the JSON text is cut to this many characters (modulo its length). */
  cut?: number;
}

const P53 = 2n ** 53n;
const SAFE = P53 - 1n;
/** Characters that break naive servers: path and query syntax, quotes, escapes, markup, emoji, combining marks, controls. */
const SPECIAL = [
  '/',
  '"',
  "'",
  '\\',
  '<',
  '>',
  '&',
  '%',
  '?',
  '#',
  ';',
  '`',
  '$',
  '{',
  '}',
  ' ',
  '\u00a0',
  'é',
  'e\u0301',
  'ß',
  '中',
  '🐶',
  '👩‍👩‍👧',
  '\u202e',
  '\u200b',
  '\n',
  '\t',
  '\u0000',
  '\u007f',
];
const PLAIN = [...'abcdefghijklmnopqrstuvwxyz0123456789-_'];

/**
 * Byte sequences that are not UTF-8 (RFC 3629 §3): a byte no UTF-8 holds, a lead byte without its continuation,
 * a continuation without its lead, an overlong `/`, a UTF-16 surrogate, a sequence cut short, beyond U+10FFFF.
 * Each is carried as rawBytes (see client/bytes.ts) and sent as the bytes themselves.
 */
const NOT_UTF8: readonly string[] = [
  rawBytes(0xff),
  `${rawBytes(0xc3)}(`,
  rawBytes(0x80),
  rawBytes(0xc0, 0xaf),
  rawBytes(0xed, 0xa0, 0x80),
  rawBytes(0xe2, 0x82),
  rawBytes(0xf4, 0x90, 0x80, 0x80),
];

/** Text holding bytes that are not UTF-8: a short plain or special string around one of NOT_UTF8. */
export function notUtf8Arb(): fc.Arbitrary<string> {
  const around = fc.string({ unit: fc.constantFrom(...PLAIN), maxLength: 6 });
  return fc.tuple(around, fc.constantFrom(...NOT_UTF8), around).map(([a, bad, b]) => a + bad + b);
}

/**
 * One character (or grapheme) of a generated name: mostly plain, often special, sometimes any code point.
 * Cross-shrinking tries `a` first for each character, so one that does not matter to a failure shrinks in one step.
 */
const nameUnit = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constant('a') },
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  // Any code point, lone surrogates included (what `unit: 'binary'` draws): built from an integer, since fast-check's
  // one-character binary string builds a reverse map of every code point when made, 4 s of CPU at import.
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
);

const FILL = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of plain filler. */
function filler(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += FILL[i % FILL.length];
  return out;
}

/**
 * Any string: empty, short, long (up to 328 characters), unicode, quotes, slashes, controls. A long name is
 * two short ones around a run of filler whose length is one integer: fast-check shrinks a long string one
 * character at a time (hundreds of requests per step), an integer in a few steps, so a length bug shrinks fast.
 */
function nameArb(): fc.Arbitrary<string> {
  const short = fc.string({ unit: nameUnit, maxLength: 24 });
  const long = fc.tuple(short, fc.nat({ max: 280 }), short).map(([head, n, tail]) => head + filler(n) + tail);
  return fc.oneof({ weight: 5, arbitrary: short }, { weight: 2, arbitrary: long });
}

/** Any int64, biased to zero, small values and the edges (±1, 2^53 and around it, the int64 limits). */
export function int64Arb(): fc.Arbitrary<bigint> {
  const edges = [0n, 1n, -1n, SAFE, -SAFE, P53, -P53, P53 + 1n, -(P53 + 1n), INT64.max, INT64.min];
  return fc.oneof(
    { weight: 6, arbitrary: fc.bigInt({ min: -1000n, max: 1000n }) },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 1, arbitrary: fc.bigInt(INT64) },
  );
}

function propertyArb(p: PropertyInfo): fc.Arbitrary<string | bigint> {
  if (p.enum) return fc.constantFrom(...p.enum);
  if (p.type === 'string') return nameArb();
  return p.format === 'int64' ? int64Arb() : fc.bigInt({ min: -SAFE, max: SAFE });
}

/** Valid NewPets: every property across its domain, optional ones sometimes absent. */
export function newPetArb(props: readonly PropertyInfo[] = schemaProperties()): fc.Arbitrary<NewPetValue> {
  const model = Object.fromEntries(props.map((p) => [p.name, propertyArb(p)]));
  return fc.record(model, {
    requiredKeys: props.filter((p) => p.required).map((p) => p.name),
  }) as fc.Arbitrary<NewPetValue>;
}

/** Strings outside an enumeration: near misses (case, spaces, cut short), the empty string, anything else. */
export function notInEnumArb(values: readonly string[]): fc.Arbitrary<string> {
  const variants = values.flatMap((v) => [
    v.toUpperCase(),
    v[0]!.toUpperCase() + v.slice(1),
    ` ${v}`,
    `${v} `,
    v.slice(0, -1),
    values.join(','),
    '',
  ]);
  return fc.oneof(fc.constantFrom(...variants), fc.string({ maxLength: 12 })).filter((s) => !values.includes(s));
}

/** A JSON value of another type than the property's. */
function wrongTypeArb(p: PropertyInfo): fc.Arbitrary<BodyValue> {
  const common = [fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([])];
  if (p.type === 'string') return fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), ...common);
  return fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }).map(String), fc.constantFrom(1.5, -0.5, 0.1), ...common);
}

/** Far enough beyond int64 that a double still shows it (the next double after 2^63 is 2^63 + 2048). */
const beyondInt64 = fc.oneof(
  fc.bigInt({ min: INT64.max + 4097n, max: 2n ** 70n }),
  fc.bigInt({ min: -(2n ** 70n), max: INT64.min - 4097n }),
);

function mutations(props: readonly PropertyInfo[], valid: fc.Arbitrary<NewPetValue>): fc.Arbitrary<InvalidBody>[] {
  const withValue = (kind: string, name: string, bad: fc.Arbitrary<BodyValue>) =>
    fc.tuple(valid, bad).map(([v, b]): InvalidBody => ({ kind, value: { ...v, [name]: b } }));
  const out: fc.Arbitrary<InvalidBody>[] = [
    fc
      .oneof(
        fc.constantFrom<BodyValue>(null, true, 42n, 'text', []),
        valid.map((v): BodyValue => [v]),
      )
      .map((value) => ({ kind: 'notObject', value })),
    fc.tuple(valid, fc.nat()).map(([value, cut]) => ({ kind: 'malformed', value, cut })),
  ];

  for (const p of props) {
    if (p.required) out.push(valid.map((v) => ({ kind: `missing.${p.name}`, value: withoutKey(v, p.name) })));
    // JSON text is UTF-8 (RFC 8259 §8.1): a string holding other bytes makes the body no JSON at all.
    if (p.type === 'string' && !p.enum) out.push(withValue(`notUtf8.${p.name}`, p.name, notUtf8Arb()));
    out.push(withValue(`type.${p.name}`, p.name, wrongTypeArb(p)));
    if (p.enum) out.push(withValue(`enum.${p.name}`, p.name, notInEnumArb(p.enum)));
    if (p.format === 'int64') out.push(withValue(`range.${p.name}`, p.name, beyondInt64));
  }
  return out;
}

function withoutKey(v: NewPetValue, key: string): BodyValue {
  return Object.fromEntries(Object.entries(v).filter(([k]) => k !== key));
}

/** The text an invalid body is sent as. */
export function invalidBodyText(b: InvalidBody): string {
  const text = toJsonText(b.value);
  return b.cut === undefined ? text : text.slice(0, b.cut % Math.max(1, text.length));
}

/** Whether the spec's own validator refuses the body (or it is not JSON at all: not UTF-8, or not parsed). */
export function isInvalidNewPet(text: string): boolean {
  if (hasRawBytes(text)) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true;
  }
  return !getValidator('NewPet')(parsed);
}

/**
 * Bodies that break the NewPet schema each way it can be broken, checked against the spec's validator. An
 * integer beyond int64 is invalid by the format's definition, which the validator cannot check (ajv-formats
 * takes any integer as int64, since a double cannot hold the limits), so those are checked on their digits.
 */
export function invalidBodyArb(props: readonly PropertyInfo[] = schemaProperties()): fc.Arbitrary<InvalidBody> {
  return fc
    .oneof(...mutations(props, newPetArb(props)))
    .filter((b) => outsideInt64(b) || isInvalidNewPet(invalidBodyText(b)));
}

/** A value as a person reads it: a short JSON text (`"1"`, `null`, `[…]`). */
function shown(value: BodyValue | undefined): string {
  const text = value === undefined ? 'nothing' : toJsonText(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/**
 * What is wrong with an invalid body, in words and with no internal ids: `categoryId 9223372036854779904, beyond
 * int64's largest value (9223372036854775807)`, `without name`, `status "x", not one of available, pending, sold`.
 */
export function describeInvalid(b: InvalidBody): string {
  const [rule, field = ''] = b.kind.split('.');
  const value = field === '' ? undefined : (b.value as Record<string, BodyValue>)[field];
  switch (rule) {
    case 'missing':
      return `a body without ${field}`;
    case 'type':
      return `${field} ${shown(value)}, not of the type the contract gives it`;
    case 'enum':
      return `${field} ${shown(value)}, not one of the values the contract lists`;
    case 'range': {
      const v = value as bigint;
      return v > INT64.max
        ? `${field} ${v}, beyond int64's largest value (${INT64.max})`
        : `${field} ${v}, beyond int64's smallest value (${INT64.min})`;
    }
    case 'notObject':
      return `a body that is not a JSON object (${shown(b.value)})`;
    case 'malformed':
      return 'a body that is not valid JSON (cut short)';
    default:
      return b.kind;
  }
}

/** A value's JSON type in the words a rule uses: `null`, `a boolean`, `an array`. */
function kindOf(value: BodyValue | undefined, integerField: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'bigint') return 'a number';
  if (typeof value === 'number') return integerField && !Number.isInteger(value) ? 'not an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'boolean' ? 'a boolean' : 'a string';
}

/**
 * The rule an invalid body breaks, with the kind of value, in the words of the fixed table's `breaks`
 * (fixtures/invalid-new-pets.json): `status is a boolean`, `name is missing`, `data follows the JSON value`. Two
 * bodies that break different rules are different failures, each shrunk and reported on its own, and a generated
 * failure shares its cause with the fixed case that breaks the same rule.
 */
export function ruleOf(b: InvalidBody): string {
  const [rule, field = ''] = b.kind.split('.');
  const value = field === '' ? undefined : (b.value as Record<string, BodyValue>)[field];
  switch (rule) {
    case 'missing':
      return `${field} is missing`;
    case 'type':
      return `${field} is ${kindOf(value, field === 'categoryId')}`;
    case 'enum':
      return `${field} is outside the enumeration`;
    case 'range':
      return `${field} is beyond int64`;
    case 'notUtf8':
      return 'the body is not UTF-8';
    case 'notObject':
      return 'the body is not a JSON object';
    case 'malformed':
      // Cut to nothing it is the empty body the fixed table names so: the same rule, the same cause.
      return invalidBodyText(b) === '' ? 'the body is empty' : 'the body is not JSON';
    default:
      return b.kind;
  }
}

/** Whether a `range.*` body holds an integer outside int64. */
export function outsideInt64(b: InvalidBody): boolean {
  if (!b.kind.startsWith('range.')) return false;
  const v = (b.value as Record<string, BodyValue>)[b.kind.slice('range.'.length)];
  return typeof v === 'bigint' && (v < INT64.min || v > INT64.max);
}
