/**
 * The figures the READMEs show, written by the bench itself: a marked section
 * of bench/README.md (every table, and a short summary at the top), each
 * rewritten from the results of a full run. bench.test.ts holds both to
 * bench/results/latest.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { num, ratio } from './markdown.ts';
import { renderTables, targetCount } from './render.ts';
import {
  type BenchResults,
  intervalPercent,
  LOAD_NAMES,
  launchStatistic,
  ROUTE_TITLES,
  TARGET_SIZES,
  THROUGHPUT_TARGETS,
} from './report.ts';

/** The marked sections: which file holds each, and what renders it. */
export const SECTIONS = {
  tables: { file: 'bench/README.md', render: renderTables },
  summary: { file: 'bench/README.md', render: renderSummary },
} as const;

/** A name of {@link SECTIONS}. */
export type SectionName = keyof typeof SECTIONS;

/** An error of the marked sections, with a stable code. */
export class ReadmeSectionError extends Error {
  readonly code = 'BENCH_README_MARKERS';
}

function markers(name: SectionName): [string, string] {
  return [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];
}

function bounds(text: string, name: SectionName): [number, number] {
  const [start, end] = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from || text.indexOf(start, from + 1) !== -1 || text.indexOf(end, to + 1) !== -1)
    throw new ReadmeSectionError(`expected one "${start}" followed by one "${end}"`);
  return [from + start.length, to];
}

/** The text between a section's markers, without the line breaks that frame it. */
export function extractSection(text: string, name: SectionName): string {
  const [from, to] = bounds(text, name);
  return text.slice(from, to).replace(/^\n/, '').replace(/\n$/, '');
}

/** `text` with a section's content replaced by `content`. */
export function replaceSection(text: string, name: SectionName, content: string): string {
  const [from, to] = bounds(text, name);
  return `${text.slice(0, from)}\n${content}\n${text.slice(to)}`;
}

/** Rewrites every marked section from `results`. */
export function writeReadmes(results: BenchResults, root: string): string[] {
  return Object.entries(SECTIONS).map(([name, { file, render }]) => {
    const path = join(root, file);
    writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), name as SectionName, render(results)));
    return file;
  });
}

function throughputLine(r: BenchResults): string {
  const t = r.throughput;
  if (!t) return 'Throughput was not measured in this run.';
  const sliced = t.method === 'slices';
  const routes = (sliced ? LOAD_NAMES : (['list', 'get', 'create'] as const)).map((route) => {
    const [mock, big] = [t.routes[route]?.mock, t.routes[route]?.['mock-1000']];
    return sliced
      ? `${ROUTE_TITLES[route]} ${ratio(mock?.cpuOverMinimal)} / ${ratio(big?.cpuOverMinimal)}`
      : `${ROUTE_TITLES[route]} ${ratio(mock?.overMinimal)} / ${ratio(mock?.cpuOverMinimal)} (1,000 pets: ${ratio(big?.overMinimal)} / ${ratio(big?.cpuOverMinimal)})`;
  });
  const p99 = Math.max(...(['list', 'get', 'create'] as const).map((route) => t.routes[route]?.mock?.p99Ms ?? NaN));
  const control = TARGET_SIZES.flatMap(({ control: key }) =>
    LOAD_NAMES.flatMap((route) => {
      const f = t.routes[route]?.[key];
      return f ? [f.cpuOverMinimal] : [];
    }),
  );
  const range = `${ratio(Math.min(...control))} to ${ratio(Math.max(...control))}`;
  const percent = intervalPercent(r.targets);
  if (sliced)
    return [
      `Per CPU-second against a minimal \`node:http\` server sharing its CPU in alternating slices (target ${THROUGHPUT_TARGETS.list}x; 50 / 1,000 pets; ${launchStatistic(t)}s of ${r.settings.launches} launches), the mock serves ${routes.join(', ')}; its p99 at 32 connections is at most ${num(p99, 1)} ms (target 5 ms).`,
      control.length > 0
        ? `The control, the minimal server against a second process of itself, read ${range} on the ten loads: a ratio closer to its target than the control to 1.00x is not called${percent === undefined ? '' : `, nor one whose target lies inside the interval that holds the median of its own launches ${percent} % of the time`}.`
        : 'The control was not run.',
    ].join('\n');
  const controlLine =
    control.length > 0
      ? ` The control, the minimal server against itself, read ${range} per CPU-second on the five loads (medians).`
      : '';
  return `Against a minimal \`node:http\` server, per second / per CPU-second (target ${THROUGHPUT_TARGETS.list}x), the mock serves ${routes.join(', ')}; its p99 at 32 connections is at most ${num(p99, 1)} ms (target 5 ms).${controlLine}`;
}

function startupLine(r: BenchResults): string {
  const row = (key: string) => r.startup?.find((s) => s.key === key);
  const [npx, npxBase, inProc, inBase] = ['npx-mock', 'npx-two-line', 'inprocess-mock', 'inprocess-two-line'].map(row);
  if (!npx || !npxBase || !inProc || !inBase) return 'Startup was not measured in this run.';
  return `\`npx petstore-mock\` answers first after ${num(npx.medianMs)} ms, ${ratio(npx.medianMs / npxBase.medianMs)} a two-line \`node:http\` server started the same way (target 1.5x); in a test file, importing the package, starting the mock and its first answer take ${num(inProc.medianMs)} ms, ${ratio(inProc.medianMs / inBase.medianMs)} the same with a two-line server (target 3x).`;
}

/**
 * The tools a user would pick instead, at 50 pets on the mixed load: requests per CPU-second and start over the
 * mock's. Absent (no line) when the run had no peers section.
 */
function peersLine(r: BenchResults): string | undefined {
  const p = r.peers;
  if (!p) return undefined;
  const mock = p.servers.find((s) => s.pets === 50 && s.key === 'mock');
  const others = p.servers.filter((s) => s.pets === 50 && s.key !== 'mock' && s.key !== 'mock-again');
  if (!mock || others.length === 0) return undefined;
  const each = others.map((s) => {
    const cpu = s.routes.mixed?.cpuOverMock;
    return `${s.label} ${cpu === undefined ? 'n/a' : ratio(cpu)} / ${ratio(s.startOverMock)}`;
  });
  return `Beside it (${launchStatistic(p)}s of ${p.launches} launches, 50 pets, the mixed load; requests per CPU-second, higher is better / start, lower is better, each over the mock's): ${each.join(', ')}.`;
}

/** The README's few lines (five for a full run): the run and its targets, the throughput and its control, the start, the peers. */
export function renderSummary(r: BenchResults): string {
  const peers = peersLine(r);
  return [
    `From \`${r.command}\` on ${r.generatedAt.slice(0, 10)} (${r.machine.nproc} shared CPUs; every figure a ratio within the run): ${targetCount(r.targets)}.`,
    throughputLine(r),
    startupLine(r),
    ...(peers === undefined ? [] : [peers]),
  ].join('\n');
}
