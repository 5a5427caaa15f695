/**
 * The conformance suite as the test of the mock's mutants (`npm run mutation`): strict, with generated requests,
 * against a mock of 190 pets (PETS, below), in process: through the undici
 * dispatcher for the core, and over 127.0.0.1 for the node adapter's request handling. A mutant is killed when a
 * case the suite would report to any server fails; nothing else here judges the mock.
 */
import { type ConformanceOptions, type Report, runConformance } from '../../conformance/index.ts';
import { startMockServer } from '../../mock/node/index.ts';
import { createMockDispatcher } from '../../mock/undici/index.ts';

/**
 * Letters of both cases and digits, so that every near key of the auth cases (another case among them) exists; 15
 * characters, not a multiple of `Bearer `'s 7, so that a mutant reading the key from the wrong offset cannot wrap
 * round onto the right character.
 */
const KEY = 'Mutation-Key-42';
/**
 * More than `limit`'s maximum, so its bounds show; and 190 exactly, so that the run's creations take the store
 * through sizes (191 to 253) at which a binary search reading one past the end misses the last animal: the
 * read-back then meets that miss (at 150 pets, 151 to 189, it finds every one).
 */
const PETS = 190;
const GENERATED = 30;

/** One test: a run of the suite; what it returns is every problem found, none when the mock passed. */
export interface SuiteTest {
  id: string;
  run(): Promise<string[]>;
}

/** The cases that failed, each with its reason; a run that judged nothing, or could not finish, says so. */
function problems(report: Report): string[] {
  const failed = report.cases.filter((c) => c.outcome === 'failed').map((c) => `${c.id}: ${c.reason ?? ''}`);
  if (report.incomplete) failed.push(`incomplete: ${report.incomplete}`);
  if (report.summary.passed === 0) failed.push('nothing passed: nothing was judged');
  return failed;
}

async function throughDispatcher(options: Partial<ConformanceOptions>): Promise<string[]> {
  const dispatcher = createMockDispatcher({ apiKeys: [KEY], count: PETS });
  return problems(await runConformance({ baseUrl: dispatcher.url, apiKey: KEY, strict: true, dispatcher, ...options }));
}

/** The tests, cheapest first: a mutant is killed by the first that fails. */
export const SUITE_TESTS: readonly SuiteTest[] = [
  { id: 'fixed cases through the undici dispatcher', run: () => throughDispatcher({}) },
  {
    id: 'fixed cases over 127.0.0.1 (the node adapter)',
    async run() {
      const server = await startMockServer({ apiKeys: [KEY], count: PETS });
      try {
        return problems(await runConformance({ baseUrl: server.url, apiKey: KEY, strict: true }));
      } finally {
        await server.close();
      }
    },
  },
  {
    id: 'generated checks through the undici dispatcher',
    run: () => throughDispatcher({ only: ['generated.*'], generate: GENERATED }),
  },
];
