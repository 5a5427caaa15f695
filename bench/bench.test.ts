import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractSection, SECTIONS, type SectionName } from './readme.ts';
import { type BenchResults, checkTargets } from './report.ts';
import { SECTION_NAMES } from './settings.ts';

describe('the published figures', () => {
  const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
  const latest = JSON.parse(read('bench/results/latest.json')) as BenchResults;

  it('come from a full run', () => {
    // Every section, not --quick; more launches than the default (`--launches N`) make it no less full.
    expect([latest.quick, latest.sections]).toEqual([false, [...SECTION_NAMES]]);
    expect(latest.command).toMatch(/^npm run bench(?: -- --launches \d+)?$/);
  });

  it("hold the targets checked against today's limits (after a limit changes: npm run bench -- --render)", () => {
    const { targets, ...figures } = latest;
    expect(targets).toEqual(checkTargets(figures));
  });

  it.each(Object.keys(SECTIONS) as SectionName[])(
    'the marked %s section is what the bench renders from bench/results/latest.json',
    (name) => {
      const { file, render } = SECTIONS[name];
      expect(extractSection(read(file), name)).toBe(render(latest));
    },
  );
});
