/**
 * The suite's redaction against every spelling a server might echo a secret in: raw, JSON-escaped,
 * percent-encoded whole or in part and in either hex case, `\u`-escaped, as HTML character references, in base64
 * standard, URL-safe or unpadded at any offset (`Bearer KEY`, Basic credentials, any text around it). For random secrets and random surroundings, no spelling survives, in data or in mixed text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASIC_USER, createRedactor, createTextRedactor } from './redact.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Every spelling of `key` a server might send back. */
function spellings(key: string, pick: number, around = ''): string[] {
  const percentAll = [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  // The first character escaped, the rest as a URL would carry it (a literal % must then be %25).
  const percentPart = `%${key.charCodeAt(0).toString(16).padStart(2, '0')}${encodeURIComponent(key.slice(1))}`;
  const std = b64(key);
  return [
    key,
    JSON.stringify(key).slice(1, -1),
    encodeURIComponent(key),
    encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    pick % 2 ? percentAll.replace(/%[0-9a-f]{2}/g, (hex) => hex.toUpperCase()) : percentAll,
    percentPart,
    std,
    std.replace(/=+$/, ''),
    std.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_'),
    b64(`${BASIC_USER}:${key}`),
    b64(`Bearer ${key}`),
    b64(`Bearer ${key}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
    b64(`${around}${key}${around}`),
    [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''),
    key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  ];
}

const key = fc.string({ minLength: 8, maxLength: 24, unit: 'grapheme-ascii' }).filter((k) => k.trim().length >= 8);
const around = fc.string({ maxLength: 12, unit: 'grapheme-ascii' });

describe('the suite hides a secret in every spelling', () => {
  it('in data a server sent, and in mixed text', () => {
    fc.assert(
      fc.property(key, around, around, fc.nat(), (secret, before, after, pick) => {
        const data = createRedactor([secret]);
        const text = createTextRedactor([secret]);
        for (const spelled of spellings(secret, pick, before)) {
          const sent = `${before} ${spelled} ${after}`;
          for (const out of [data(sent), text(sent)]) {
            expect(out, JSON.stringify({ secret, spelled })).not.toContain(spelled);
            expect(out).toContain('[REDACTED]');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves text without the secret as it was', () => {
    fc.assert(
      fc.property(key, fc.string({ maxLength: 40 }), (secret, other) => {
        fc.pre(!other.includes(secret) && !other.includes('%'));
        expect(createRedactor([secret])(other)).toBe(other);
      }),
      { numRuns: 300 },
    );
  });
});
