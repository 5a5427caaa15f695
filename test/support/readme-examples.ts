/**
 * The README's three examples of the mock in tests (a port under vitest, a
 * dispatcher under Jest, MSW in a browser), extracted as written, so tests
 * can run them: the README cannot drift from the API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/** The code blocks of the README's "Use the mock in your tests" section, by the way each reaches the mock. */
export interface ReadmeExamples {
  /** TypeScript for vitest (globals): startMockServer. */
  port: string;
  /** CommonJS for Jest: createMockDispatcher. */
  dispatcher: string;
  /** TypeScript for a browser app: createMswHandlers with setupWorker. */
  msw: string;
}

export function readmeExamples(): ReadmeExamples {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Use the mock in your tests');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```(ts|js)\n([\s\S]*?)```/g)].map((m) => m[2]!);
  const [port, dispatcher, msw] = blocks;
  if (
    !port?.includes('startMockServer') ||
    !dispatcher?.includes('createMockDispatcher') ||
    !msw?.includes('createMswHandlers')
  )
    throw new Error('README: the section "Use the mock in your tests" no longer has its three examples in order');
  return { port, dispatcher, msw };
}
