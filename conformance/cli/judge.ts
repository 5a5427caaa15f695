/**
 * `petstore-conformance judge FILE.har [FILE.har …] --base-url URL`: recorded
 * traffic judged against the contract, with the run's reporters and exit
 * codes: 0 all well, 1 a required failure, 2 nothing judged or bad input (one line).
 */
import { parseArgs } from 'node:util';
import { ConformanceError } from '../errors.ts';
import { shouldColor } from '../report/index.ts';
import {
  needsExchangeLog,
  notWrittenLine,
  parseReportTargets,
  reporterUsage,
  writeReports,
} from '../report/targets.ts';
import { judgeTraffic } from '../traffic/judge-traffic.ts';
import type { TrafficOptions } from '../traffic/options.ts';

/** The help of `judge`. */
const JUDGE_HELP = `Usage: npx petstore-conformance judge FILE.har [FILE.har …] --base-url URL [options]

Judges recorded traffic (HAR files from a browser's devtools, Playwright's recordHar, mitmproxy, or
this suite's --reporter har) against the contract, on both sides: the client's requests and the
server's answers. Several files are judged as one run, in time order.

  --base-url URL        the API's base URL ending in /v1 (or PETSTORE_BASE_URL); entries
                        elsewhere are counted by host, not judged
  --side S              whose findings fail the run: both (default), server or client
                        (the other side's findings are listed, not failures)
  --as-of DATE          judge getPet calls at this date for its sunset (default: each entry's time)
  --header NAME         a header whose values are secrets, hidden in every report (repeatable;
                        Authorization, cookies and keys in URLs always are)
  --strict              advice becomes failure; Pets may carry no extra fields
${reporterUsage(24)}
  -h, --help            show this help

Exit status: 0 all judged entries conform, 1 a required failure, 2 nothing could be judged or a
file is not a readable HAR (one line naming the file and the place).
`;

const OPTIONS = {
  'base-url': { type: 'string' },
  side: { type: 'string' },
  'as-of': { type: 'string' },
  header: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  reporter: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

function usage(message: string): ConformanceError {
  return new ConformanceError('PETSTORE_CONFORMANCE_BAD_OPTIONS', message);
}

/** Runs `judge` and returns its exit code. */
export async function judgeMain(
  args: string[],
  env: NodeJS.ProcessEnv,
  out: NodeJS.WritableStream & { isTTY?: boolean },
  err: NodeJS.WritableStream,
): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (e) {
      throw usage((e as Error).message.split('\n')[0]!);
    }
    const v = parsed.values;
    if (v.help) {
      out.write(JUDGE_HELP);
      return 0;
    }
    const baseUrl = v['base-url'] ?? env.PETSTORE_BASE_URL;
    if (!baseUrl) throw usage('--base-url: no base URL: pass --base-url or set PETSTORE_BASE_URL');
    if (parsed.positionals.length === 0) throw usage('no HAR file given');
    const reporters = parseReportTargets(v.reporter);
    const side = v.side ?? 'both';
    if (!['both', 'client', 'server'].includes(side))
      throw usage(`--side must be both, client or server, got ${JSON.stringify(side)}`);
    const options: TrafficOptions = {
      files: parsed.positionals,
      baseUrl,
      side: side as TrafficOptions['side'],
      strict: v.strict === true,
      secretHeaders: (v.header ?? []).map((h) => h.split(':')[0]!.trim()),
      exchangeLog: needsExchangeLog(reporters),
      ...(v['as-of'] === undefined ? {} : { asOf: v['as-of'] }),
    };
    const report = await judgeTraffic(options);
    for (const failure of writeReports(report, reporters, { out, color: shouldColor(out, env) }))
      err.write(notWrittenLine('petstore-conformance judge', failure));
    if (report.ok) return 0;
    if (report.summary.failed > 0) return 1;
    err.write(`petstore-conformance: ${report.incomplete ?? 'nothing could be judged'}\n`);
    return 2;
  } catch (e) {
    const line = e instanceof ConformanceError ? e.message : `unexpected error: ${(e as Error)?.message ?? String(e)}`;
    err.write(
      `petstore-conformance judge: ${line.split('\n')[0]}${e instanceof ConformanceError && e.code === 'PETSTORE_CONFORMANCE_BAD_OPTIONS' ? ' (see judge --help)' : ''}\n`,
    );
    return 2;
  }
}
