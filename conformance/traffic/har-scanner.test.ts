import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarScanner, ScanError, type ScannedElement } from './har-scanner.ts';

/** The elements and skeleton errors of `text` fed to a scanner in pieces cut at `cuts`. */
function scan(text: string, cuts: number[]): { elements: string[]; error?: string } {
  const bytes = Buffer.from(text);
  const elements: ScannedElement[] = [];
  const scanner = new HarScanner((e) => elements.push(e), 1024 * 1024);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  try {
    let from = 0;
    for (const to of [...at, bytes.length]) {
      scanner.write(bytes.subarray(from, to));
      from = to;
    }
  } catch (error) {
    return { elements: [], error: error instanceof ScanError ? `${error.problem} @${error.offset}` : String(error) };
  }
  return { elements: elements.map((e) => `${e.array}[${e.index}] ${e.start}-${e.end} ${e.bytes.toString()}`) };
}

const HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'x "quoted" \\ {brace}', version: '1' },
    pages: [{ id: 'p[1]', title: '}]' }],
    entries: [
      { request: { url: 'http://h/v1/pets?a="]}' } },
      { request: { url: 'http://h/v1/pets/1' }, response: { content: { text: '[{"nested":[1,{"x":"\\""}]}]' } } },
    ],
    comment: 'after',
  },
});

describe('HarScanner', () => {
  it('finds the same elements wherever the chunks are cut, strings with brackets and escapes included', () => {
    const whole = scan(HAR, []);
    expect(whole.error).toBeUndefined();
    expect(whole.elements).toHaveLength(3);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        expect(scan(HAR, cuts)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the same bytes with the same problem and offset wherever the chunks are cut', () => {
    for (const bad of ['[1]', '{"log":{"entries":[1]}}', '{"log":{"entries":[{} x]}}', '{"log":{"entries":[]}} {}']) {
      const whole = scan(bad, []);
      expect(whole.error, bad).toBeDefined();
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 6 }), (cuts) => {
          expect(scan(bad, cuts)).toEqual(whole);
        }),
        { numRuns: 100 },
      );
    }
  });
});
