/**
 * Judges the HAR files named on the command line and prints, as one JSON line,
 * what was judged and this process's peak resident memory (for the big-HAR test:
 * run in its own process so the figure is the judge's alone).
 */
import { judgeTraffic } from '../../../conformance/index.ts';

const [baseUrl, ...files] = process.argv.slice(2);
const started = Date.now();
const report = await judgeTraffic({ files, baseUrl: baseUrl! });
process.stdout.write(
  `${JSON.stringify({
    entries: report.traffic?.entries,
    judged: report.traffic?.judged,
    failed: report.summary.failed,
    causes: report.causes?.map((c) => c.statement),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    seconds: (Date.now() - started) / 1000,
  })}\n`,
);
