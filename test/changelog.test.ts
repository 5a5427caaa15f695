/**
 * The CHANGELOG and `--version` tell one story: one "Unreleased" section at the top (what the next
 * release holds), then released versions, newest first, the first of them the version package.json
 * (and so `--version`) states.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url);
const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1] ?? '');

function versionOf(heading: string): number[] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?: - \d{4}-\d{2}-\d{2})?$/.exec(heading);
  return match ? match.slice(1, 4).map(Number) : undefined;
}

describe('CHANGELOG.md', () => {
  it('has at most one Unreleased section, and it comes first', () => {
    const unreleased = headings.filter((heading) => heading === 'Unreleased');
    expect(unreleased.length).toBeLessThanOrEqual(1);
    if (unreleased.length === 1) expect(headings[0]).toBe('Unreleased');
  });

  it('lists released versions newest first, each with its date, the newest the one package.json states', () => {
    const released = headings.filter((heading) => heading !== 'Unreleased');
    for (const heading of released) expect(heading, `"## ${heading}"`).toMatch(/^\d+\.\d+\.\d+ - \d{4}-\d{2}-\d{2}$/);
    const versions = released.map((heading) => versionOf(heading) ?? []);
    const sorted = [...versions].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!);
    expect(versions).toEqual(sorted);
    expect(released[0]?.split(' ')[0]).toBe(version);
  });

  it('uses each change heading once per section', () => {
    for (const section of changelog.split(/^## /m).slice(1)) {
      const kinds = [...section.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
      expect(new Set(kinds).size, section.split('\n')[0]).toBe(kinds.length);
    }
  });
});
