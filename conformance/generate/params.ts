/**
 * The generated parameters, as fast-check arbitraries built from the spec:
 * `limit` across and beyond its bounds, every status and unknown ones, in
 * every combination, and petIds valid or not.
 * @see ../../docs/contract.md "Endpoints §1 List animals", "Limits", "Endpoints §3 Get an animal (deprecated)"
 */
import fc from 'fast-check';
import { type LimitBounds, listPetsLimit, petStatuses } from '../../spec/index.ts';
import { int64Arb, notInEnumArb, notUtf8Arb } from './values.ts';

/** The query of a generated listPets request; an absent key is an absent parameter. */
export interface ListQuery {
  limit?: string;
  status?: string;
}

/**
 * Which animal a generated getPet asks for: one this sequence created, one listed before, a listed one's id
 * plus 2^32 (the same id to a server that keeps 32 bits), or a raw path segment.
 */
export type PetRef = { kind: 'created' | 'existing' | 'aliased'; index: number } | { kind: 'raw'; id: string };

/** `limit` values: inside the bounds (mostly), the bounds and just beyond, far beyond, and not integers at all. */
export function limitArb(bounds: LimitBounds = listPetsLimit()): fc.Arbitrary<string> {
  const { minimum: min, maximum: max } = bounds;
  return fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min, max }).map(String) },
    { weight: 2, arbitrary: fc.constantFrom(min, max, bounds.default, min - 1, max + 1).map(String) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.bigInt({ min: -(2n ** 70n), max: BigInt(min - 1) }),
          fc.bigInt({ min: BigInt(max + 1), max: 2n ** 70n }),
        )
        .map(String),
    },
    { weight: 1, arbitrary: fc.constantFrom('', 'abc', '1.5', '1e1', '+5', ' 5', '0x10', '05', '٣', '-0', 'null') },
    { weight: 1, arbitrary: notUtf8Arb() },
  );
}

/** `status` values: each documented one (mostly) and ones outside the enumeration. */
export function statusArb(): fc.Arbitrary<string> {
  const statuses = petStatuses();
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...statuses) },
    { weight: 1, arbitrary: notInEnumArb(statuses) },
    { weight: 1, arbitrary: notUtf8Arb() },
  );
}

/** listPets queries: each parameter absent or drawn from its domain, in every combination. */
export function listQueryArb(): fc.Arbitrary<ListQuery> {
  return fc.record({ limit: limitArb(), status: statusArb() }, { requiredKeys: [] });
}

/** petIds: created or listed animals, listed ids plus 2^32, any int64, and malformed path segments. */
export function petRefArb(): fc.Arbitrary<PetRef> {
  const malformed = fc.oneof(
    fc.constantFrom('abc', '1.5', '1e3', '+1', ' 1', '0x1A', '١٢', '-0', '9223372036854775808', '-9223372036854775809'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..'),
    notUtf8Arb(),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.nat().map((index): PetRef => ({ kind: 'created', index })) },
    { weight: 1, arbitrary: fc.nat().map((index): PetRef => ({ kind: 'existing', index })) },
    { weight: 1, arbitrary: fc.nat().map((index): PetRef => ({ kind: 'aliased', index })) },
    { weight: 2, arbitrary: int64Arb().map((n): PetRef => ({ kind: 'raw', id: String(n) })) },
    { weight: 1, arbitrary: malformed.map((id): PetRef => ({ kind: 'raw', id })) },
  );
}

/** The limit a canonical in-range value asks for, or undefined when the value is absent, out of range or not canonical. */
export function validLimit(raw: string | undefined, bounds: LimitBounds = listPetsLimit()): number | undefined {
  if (raw === undefined || !/^(0|[1-9][0-9]*)$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= bounds.minimum && n <= bounds.maximum ? n : undefined;
}
