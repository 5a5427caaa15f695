import { describe, expect, it } from 'vitest';
import { measureBundle } from './bundle.ts';

describe('measureBundle', () => {
  it('measures the MSW entry for a browser: minified, gzipped, English faker only', async () => {
    const figures = await measureBundle({ entry: 'mock/msw/index.ts', external: ['msw'] });
    expect(figures.entry).toBe('mock/msw/index.ts');
    expect(figures.minifiedBytes).toBeGreaterThan(10_000);
    expect(figures.gzippedBytes).toBeGreaterThan(1_000);
    expect(figures.gzippedBytes).toBeLessThan(figures.minifiedBytes);
    expect(figures.fakerLocales).toEqual(['base', 'en']);
    expect(figures.largest).toHaveLength(5);
    expect(figures.largest[0]!.bytes).toBeGreaterThanOrEqual(figures.largest[4]!.bytes);
  });

  it('sees every locale come along when an entry imports the whole of faker', async () => {
    const figures = await measureBundle({ entry: 'bench/test/full-faker.ts' });
    expect(figures.fakerLocales.length).toBeGreaterThan(60);
    expect(figures.fakerLocales).toContain('de_AT');
  });

  it('refuses an entry that imports a node: module, as a browser bundler would', async () => {
    await expect(measureBundle({ entry: 'mock/node/index.ts' })).rejects.toThrow(/node:/);
  });
});
