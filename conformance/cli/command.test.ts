import { describe, expect, it } from 'vitest';
import { main, planFromArgs } from './command.ts';

const ENV = {
  PETSTORE_API_KEY: 'k',
  PETSTORE_PRODUCTION_URL: 'https://prod.test/v1',
  PETSTORE_STAGING_URL: 'https://staging.test/v1',
};

describe('planFromArgs', () => {
  it('takes base URL and key from flags, else from the environment', () => {
    expect(planFromArgs(['--base-url', 'http://a/v1', '--api-key', 'x'], {}).options).toMatchObject({
      baseUrl: 'http://a/v1',
      apiKey: 'x',
      readOnly: false,
    });
    expect(planFromArgs([], { PETSTORE_BASE_URL: 'http://b/v1', PETSTORE_API_KEY: 'y' }).options).toMatchObject({
      baseUrl: 'http://b/v1',
      apiKey: 'y',
    });
  });

  it('--env production or staging reads its variable and implies read-only unless --allow-writes', () => {
    expect(planFromArgs(['--env', 'production'], ENV).options).toMatchObject({
      baseUrl: 'https://prod.test/v1',
      readOnly: true,
    });
    expect(planFromArgs(['--env', 'production', '--allow-writes'], ENV).options.readOnly).toBe(false);
    expect(planFromArgs(['--env', 'staging'], ENV).options).toMatchObject({
      baseUrl: 'https://staging.test/v1',
      readOnly: true,
    });
    expect(planFromArgs(['--env', 'staging', '--allow-writes'], ENV).options.readOnly).toBe(false);
  });

  it('parses timeouts, lists, reporters with files, and defaults to pretty', () => {
    const plan = planFromArgs(
      [
        '--env',
        'staging',
        '--timeout',
        '2s',
        '--concurrency',
        '3',
        '--only',
        'listPets,getPet.unknown',
        '--only',
        'auth.*',
        '--skip',
        'x',
        '--reporter',
        'junit=reports/j.xml',
        '--reporter',
        'pretty',
        '--strict',
      ],
      ENV,
    );
    expect(plan.options).toMatchObject({
      timeoutMs: 2000,
      concurrency: 3,
      only: ['listPets', 'getPet.unknown', 'auth.*'],
      skip: ['x'],
      strict: true,
    });
    expect(plan.reporters).toEqual([{ reporter: 'junit', file: 'reports/j.xml' }, { reporter: 'pretty' }]);
    expect(planFromArgs(['--env', 'staging', '--timeout', '750ms'], ENV).options.timeoutMs).toBe(750);
    expect(planFromArgs(['--env', 'staging'], ENV).reporters).toEqual([{ reporter: 'pretty' }]);
  });

  it.each([
    [['--env', 'dev'], /--env must be production or staging/],
    [['--env', 'staging', '--base-url', 'http://a/v1'], /either --base-url or --env/],
    [['--api-key', 'k'], /no base URL/],
    [['--env', 'staging', '--reporter', 'xml'], /unknown reporter/],
    [
      ['--env', 'staging', '--reporter', 'pretty', '--reporter', 'junit'],
      /^petstore-conformance: --reporter pretty and --reporter junit would all write to standard output, one after the other: give all but one a file \(--reporter junit=FILE\) \(see --help\)\n$/,
    ],
    [
      ['--env', 'staging', '--reporter', 'json=r.json', '--reporter', 'junit=./r.json'],
      /--reporter json and --reporter junit would both write/,
    ],
    [['--env', 'staging', '--timeout', 'soon'], /--timeout must look like 500ms/],
    [['--env', 'staging', '--timeout', '5'], /--timeout needs a unit: 5s or 5ms/],
    [['--env', 'staging', '--timeout', '0s'], /--timeout must be a whole number of milliseconds of at least 1, got 0/],
    [['--env', 'staging', '--max-wait', '60'], /--max-wait needs a unit/],
    [['--env', 'staging', '--rate', '0'], /--rate must be more than 0, got 0/],
    [['--env', 'staging', '--json'], /--json goes with --list/],
    [['--env', 'staging', '--concurrency', '0'], /--concurrency must be an integer of at least 1, got 0/],
    [['--env', 'staging', '--read-only', '--allow-writes'], /contradict/],
    [['--env', 'staging', '--bogus'], /Unknown option/],
    [['--env', 'staging', '--baseline', '/nonexistent/baseline.json'], /cannot read baseline/],
    [['--env', 'staging', '--generate', 'many'], /--generate must be a whole number, got "many"/],
    [['--env', 'staging', '--generate', '-5'], /--generate/],
    [['--env', 'staging', '--seed', '1.5'], /--seed must be a whole number, got "1.5"/],
    // The range is runConformance's, told under the flag: the command has no second check to drift.
    [['--env', 'staging', '--seed', String(2 ** 31)], /--seed must be an integer from 0 to 2147483647/],
  ])('rejects %j with exit 2 and one line naming the flag', async (args, message) => {
    let text = '';
    const sink = { write: (chunk: string) => ((text += chunk), true), isTTY: false } as unknown as NodeJS.WriteStream;
    expect(await main(args, ENV, sink, sink)).toBe(2);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toMatch(message);
  });

  it('reads durations with units, the wait budget, the rate, and --list without a target', () => {
    const plan = planFromArgs(['--env', 'staging', '--timeout', '1.5s', '--max-wait', '0s', '--rate', '2.5'], ENV);
    expect(plan.options).toMatchObject({ timeoutMs: 1500, maxWaitMs: 0, ratePerSecond: 2.5 });
    expect(planFromArgs(['--env', 'staging', '--max-wait', '2m'], ENV).options.maxWaitMs).toBe(120_000);
    expect(planFromArgs(['--list', '--json', '--only', 'auth'], {})).toMatchObject({
      list: { json: true },
      options: { only: ['auth'] },
    });
  });

  it('--generate and --seed; --env implies prefixed names, and stays read-only unless --allow-writes', () => {
    expect(planFromArgs(['--base-url', 'http://a/v1', '--api-key', 'k'], {}).options).not.toHaveProperty('generate');
    expect(
      planFromArgs(['--base-url', 'http://a/v1', '--api-key', 'k', '--generate', '300', '--seed', '7'], {}).options,
    ).toMatchObject({ generate: 300, seed: 7 });
    expect(planFromArgs(['--base-url', 'http://a/v1', '--api-key', 'k'], {}).options.prefixNames).toBeUndefined();
    expect(
      planFromArgs(['--base-url', 'http://a/v1', '--api-key', 'k', '--prefix-names'], {}).options.prefixNames,
    ).toBe(true);
    expect(planFromArgs(['--env', 'staging', '--generate', '10', '--allow-writes'], ENV).options).toMatchObject({
      prefixNames: true,
      readOnly: false,
    });
    expect(planFromArgs(['--env', 'production', '--generate', '10'], ENV).options).toMatchObject({
      prefixNames: true,
      readOnly: true,
    });
  });

  it('keeps the exchange log only when a reporter needs it (har)', () => {
    const plan = (...reporters: string[]) =>
      planFromArgs(['--env', 'staging', ...reporters.flatMap((r) => ['--reporter', r])], ENV);
    expect(plan('pretty', 'json=r.json', 'junit=r.xml', 'html=r.html').options.exchangeLog).toBeUndefined();
    expect(plan('pretty', 'har=r.har')).toMatchObject({
      options: { exchangeLog: true },
      reporters: [{ reporter: 'pretty' }, { reporter: 'har', file: 'r.har' }],
    });
    expect(() => plan('hars')).toThrow('unknown reporter "hars" (pretty, json, junit, html, har)');
  });

  it('needs a key', () => {
    expect(() => planFromArgs(['--base-url', 'http://a/v1'], {})).toThrow(/no API key/);
  });
});
