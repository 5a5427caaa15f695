import { describe, expect, it } from 'vitest';
import { runProcess } from './processes.ts';

describe('runProcess', () => {
  it('decodes what a child writes across its writes: a character split between two pipe reads stays one', async () => {
    // U+FFFD's three UTF-8 bytes, written in two parts with a pause between them, arrive in two chunks.
    const script =
      'process.stdout.write(Buffer.from([0x29, 0xef])); setTimeout(() => process.stdout.write(Buffer.from([0xbf, 0xbd, 0x4c])), 100)';
    const ran = await runProcess([process.execPath, '-e', script]);
    expect(ran.stdout).toBe(')\ufffdL');
  });
});
