import { describe, expect, it } from 'vitest';
import { createProgressLine } from './progress.ts';

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(t: string): void } {
  return {
    isTTY,
    text: '',
    write(t) {
      this.text += t;
    },
  };
}

describe('the progress line', () => {
  it('is redrawn in place on a terminal and erased at the end', () => {
    const s = stream(true);
    const line = createProgressLine(s, {});
    line.update({ done: 1, total: 3, failed: 0 });
    line.update({ done: 3, total: 3, failed: 1 });
    line.clear();
    expect(s.text).toBe(
      '\r\u001b[2Kpetstore-conformance: 1/3 cases, 0 failed\r\u001b[2Kpetstore-conformance: 3/3 cases, 1 failed\r\u001b[2K',
    );
  });

  it.each([
    ['a pipe', false, {}],
    ['CI', true, { CI: 'true' }],
    ['a dumb terminal', true, { TERM: 'dumb' }],
  ])('writes nothing to %s', (_name, isTTY, env) => {
    const s = stream(isTTY);
    const line = createProgressLine(s, env);
    line.update({ done: 1, total: 3, failed: 0 });
    line.clear();
    expect(line.enabled).toBe(false);
    expect(s.text).toBe('');
  });
});
