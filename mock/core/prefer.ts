/**
 * The `Prefer` request header (RFC 7240) as the mock reads it: `code=NNN`,
 * `delay=MS` and `fault=NAME`, in any combination; any other preference is
 * ignored, as the RFC says.
 * @see ../../docs/mock.md "Prefer"
 */
import { FAULTS, type Fault } from './responses.ts';

/** The longest delay a request may ask for: 60 s. */
export const MAX_DELAY_MS = 60_000;

/** What a `Prefer` header asks of the mock, and the `Preference-Applied` value that says so. */
interface Preferences {
  status?: number;
  delayMs?: number;
  fault?: Fault;
  /** `code=503, delay=2000`: the preferences the mock honours, as sent. */
  applied: string;
}

/** Reads `Prefer`; `forceable` lists the codes this request may ask for. Returns an error message for a bad value. */
export function parsePrefer(header: string | undefined, forceable: readonly number[]): Preferences | string {
  const result: Preferences = { applied: '' };
  const applied: string[] = [];
  const seen = new Set<string>();
  for (const [name, value] of preferences(header ?? '')) {
    // RFC 7240 §2: a preference given twice counts once, the first time.
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'code') {
      const status = /^[0-9]{3}$/.test(value) ? Number(value) : NaN;
      if (!forceable.includes(status))
        return `Prefer: code=${value} is not supported here; supported codes: ${forceable.join(', ')}`;
      result.status = status;
    } else if (name === 'delay') {
      const ms = /^[0-9]{1,6}$/.test(value) ? Number(value) : NaN;
      if (!(ms <= MAX_DELAY_MS))
        return `Prefer: delay=${value} must be an integer number of milliseconds from 0 to ${MAX_DELAY_MS}`;
      result.delayMs = ms;
    } else if (name === 'fault') {
      if (!(FAULTS as readonly string[]).includes(value))
        return `Prefer: fault=${value} is not supported; supported faults: ${FAULTS.join(', ')}`;
      result.fault = value as Fault;
    } else continue;
    applied.push(`${name}=${value}`);
  }
  if (result.status !== undefined && result.fault !== undefined)
    return 'Prefer: code and fault cannot be combined; send one of them';
  result.applied = applied.join(', ');
  return result;
}

/** `code=503, delay="2000"; x=y` as `[['code','503'], ['delay','2000']]`: names lower-cased, parameters dropped. */
function preferences(header: string): [string, string][] {
  const out: [string, string][] = [];
  for (const item of header.split(',')) {
    const [token = ''] = item.split(';');
    const equals = token.indexOf('=');
    const name = (equals === -1 ? token : token.slice(0, equals)).trim().toLowerCase();
    let value = equals === -1 ? '' : token.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name !== '') out.push([name, value]);
  }
  return out;
}
