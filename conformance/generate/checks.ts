/**
 * What the checks of generated requests share: findings named by generated
 * check id, the usual per-response checks from ../checks.ts (so a generated
 * request is judged like a fixed one), and how a returned Pet is compared
 * with what was sent. Pure functions; none throws.
 */
import { type ExpectOptions, expectResponse } from '../judge/checks.ts';
import type { CheckResult, Exchange, Level } from '../types.ts';
import type { NewPetValue } from './values.ts';

/** One check of one generated request, under its generated check id. */
export interface Finding {
  id: string;
  level: Level;
  result: CheckResult;
  /** The exchange it was judged on (the sequence's last when it was judged): an advice example shows this one. */
  exchange?: Exchange;
}

/** An animal generated requests created: its id (undefined when not a safe integer) and what was sent. */
export interface CreatedAnimal {
  id: number | undefined;
  sent: NewPetValue;
}

/** A finding under `generated.<op>.<check>`. */
export function finding(op: string, check: string, result: CheckResult, level: Level = 'required'): Finding {
  return { id: `generated.${op}.${check}`, level, result };
}

/** expectResponse's results split into `no5xx` and `response` findings; a 5xx fails `no5xx` alone. */
export function basics(op: string, ex: Exchange, options: ExpectOptions, responseCheck = 'response'): Finding[] {
  const serverError = (ex.response?.status ?? 0) >= 500;
  return expectResponse(ex, options)
    .filter((r) => !(serverError && r.name === 'status'))
    .map((r) => finding(op, r.name === 'no 5xx' ? 'no5xx' : responseCheck, r));
}

/** A string as a report shows it: its length in code points and an excerpt. */
export function describeText(s: string): string {
  const points = [...s];
  const shown = points.length > 40 ? `${points.slice(0, 40).join('')}…` : s;
  return `${points.length} character${points.length === 1 ? '' : 's'} ${JSON.stringify(shown)}`;
}

/** Whether an integer field of `body` (the raw JSON text) holds exactly `digits`. */
function rawIntegerIs(body: string, field: string, value: bigint): boolean {
  return new RegExp(`"${field}"\\s*:\\s*${value}(?![0-9.eE])`).test(body);
}

/** The differences between a returned Pet (parsed and raw) and what was sent; empty when it is as sent with an integer id. */
export function petDifferences(json: unknown, raw: string, sent: NewPetValue): string[] {
  const p = (json ?? {}) as Record<string, unknown>;
  const diffs: string[] = [];
  for (const [field, value] of Object.entries(sent)) {
    if (typeof value === 'bigint') {
      // A JSON number beyond 2^53 is rounded by JSON.parse, so the digits are looked for in the text.
      const safe = value >= -(2n ** 53n) + 1n && value <= 2n ** 53n - 1n;
      const kept = safe ? p[field] === Number(value) : rawIntegerIs(raw, field, value);
      if (!kept) diffs.push(`${field}: sent ${value}, got ${JSON.stringify(p[field])}`);
    } else if (p[field] !== value) {
      const got = typeof p[field] === 'string' ? describeText(p[field] as string) : JSON.stringify(p[field]);
      diffs.push(`${field}: sent ${describeText(value)}, got ${got}`);
    }
  }
  if (!Number.isInteger(p.id)) diffs.push(`id: expected an integer, got ${JSON.stringify(p.id)}`);
  return diffs;
}

/** The body as an object, when the response had `status` and a JSON object body. */
export function asPet(ex: Exchange, status: number): Record<string, unknown> | undefined {
  const json = ex.response?.status === status ? ex.response.json : undefined;
  return json !== null && typeof json === 'object' && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

/** What was sent, for a report line: each field, the name described. */
export function describeSent(sent: NewPetValue): string {
  return Object.entries(sent)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? describeText(v) : String(v)}`)
    .join(', ');
}
