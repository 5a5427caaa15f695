/**
 * A server that answers JSON nested thousands of levels deep (a few KB): the run ends with its verdict and a
 * report of bounded size, not "Maximum call stack size exceeded" and no report.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { runConformance } from '../conformance/index.ts';
import { renderHtml, renderJson, renderJunit, renderPretty } from '../conformance/report/index.ts';

it('5,000 nested arrays in every answer: a failed run, every report written and bounded', async () => {
  const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(deep);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const report = await runConformance({ baseUrl: url, apiKey: 'deep-json-key' });
    expect(report.ok).toBe(false);
    const sizes = [renderJson(report), renderPretty(report), renderHtml(report), renderJunit(report)].map(
      (t) => t.length,
    );
    console.log(`report sizes (json, pretty, html, junit): ${sizes.join(', ')}`);
    // The parsed JSON is cut at 64 levels; what remains is the bodies as sent (10 kB each here, about 300 answers).
    for (const size of sizes) expect(size).toBeLessThan(4_000_000);
    expect(renderJson(report)).toContain('nested deeper than 64 levels: cut in the report');
  } finally {
    server.close();
  }
}, 30_000);
