import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_ENTRIES, measureBrowserBundles, measureBundle } from './bundle.ts';
import { ROOT } from './processes.ts';

describe('measureBundle', () => {
  it('measures the MSW entry for a browser: minified, gzipped, English faker only, and faker only on demand', async () => {
    const figures = await measureBundle({ entry: 'mock/msw/index.ts', external: ['msw'] });
    expect(figures.entry).toBe('mock/msw/index.ts');
    expect(figures.minifiedBytes).toBeGreaterThan(10_000);
    expect(figures.gzippedBytes).toBeGreaterThan(1_000);
    expect(figures.gzippedBytes).toBeLessThan(figures.minifiedBytes);
    expect(figures.fakerLocales).toEqual(['base', 'en']);
    expect(figures.largest).toHaveLength(5);
    expect(figures.largest[0]!.bytes).toBeGreaterThanOrEqual(figures.largest[4]!.bytes);
    // The default pets ship as data: faker is a chunk of its own, loaded only for another seed or count.
    expect(figures.largest.some((input) => input.path.includes('faker'))).toBe(false);
    expect(figures.lazyMinifiedBytes).toBeGreaterThan(300_000);
    expect(figures.gzippedBytes).toBeLessThanOrEqual(40_000);
  });

  it('sees every locale come along when an entry imports the whole of faker', async () => {
    const figures = await measureBundle({ entry: 'bench/test/full-faker.ts' });
    expect(figures.fakerLocales.length).toBeGreaterThan(60);
    expect(figures.fakerLocales).toContain('de_AT');
  });

  it('refuses an entry that imports a node: module, as a browser bundler would', async () => {
    // A node: module of its own, or one of a driver it may load (better-sqlite3 asks for "fs"): either way, refused.
    await expect(measureBundle({ entry: 'mock/node/index.ts' })).rejects.toThrow(/node:|Could not resolve "fs"/);
  });
});

describe('the bundle section', () => {
  it("bundles each entry through the installed package's exports (its dist/), English faker only", async () => {
    // A project with this checkout installed as a link, as `npm i` of the tarball would resolve it.
    const project = mkdtempSync(join(tmpdir(), 'bundle-section-'));
    try {
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(ROOT, join(project, 'node_modules', 'petstore-toolkit'), 'dir');
      const figures = await measureBrowserBundles(project);
      expect(figures.map((f) => f.entry)).toEqual(BROWSER_ENTRIES.map((e) => e.entry));
      for (const f of figures) {
        expect(f.fakerLocales).toEqual(['base', 'en']);
        expect(f.gzippedBytes).toBeLessThan(f.minifiedBytes);
        expect(f.largest.every((input) => !input.path.endsWith('.ts'))).toBe(true);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
