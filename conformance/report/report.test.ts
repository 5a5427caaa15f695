import { describe, expect, it } from 'vitest';
import type { CaseResult, Report } from '../types.ts';
import {
  escapeHtml,
  escapeXml,
  renderCurl,
  renderHtml,
  renderJson,
  renderJunit,
  renderPretty,
  shouldColor,
} from './index.ts';

const failed: CaseResult = {
  id: 'createPet.full',
  title: 'create <it> & "echo"',
  level: 'required',
  section: 'Endpoints §2 Add an animal',
  operationId: 'createPet',
  covers: [201],
  outcome: 'failed',
  reason: 'status: expected 201, got 200',
  checks: [
    { name: 'status', ok: false, message: 'expected 201, got 200' },
    { name: 'schema Pet', ok: false, message: 'body is not a valid Pet', details: ['/id must be integer'] },
    { name: 'media type', ok: true, message: 'application/json' },
  ],
  exchanges: [
    {
      request: {
        method: 'POST',
        url: 'http://h/v1/pets',
        headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
        body: `{"name":"o'brien"}`,
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}\u0000', bytes: 11 },
      durationMs: 3,
    },
  ],
  durationMs: 4,
};

function report(cases: CaseResult[]): Report {
  return {
    tool: 'petstore-conformance',
    runId: 'r1',
    baseUrl: 'http://h/v1',
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 12,
    options: { strict: false, readOnly: false, concurrency: 8, timeoutMs: 10000 },
    cases,
    deselected: 0,
    summary: { passed: 1, failed: 1, warned: 1, info: 0, skipped: 1, notApplicable: 0, total: 4 },
    statusTable: [
      {
        operationId: 'createPet',
        method: 'POST',
        path: '/pets',
        status: 201,
        caseIds: ['createPet.full'],
        declaredOnly: [],
        answeredOtherwise: [],
        notApplicable: [],
      },
      {
        operationId: 'getPet',
        method: 'GET',
        path: '/pets/{petId}',
        status: 404,
        caseIds: [],
        declaredOnly: ['getPet.unknown'],
        answeredOtherwise: [],
        notApplicable: [],
      },
    ],
    created: { count: 2, ids: [5, 6], namePrefix: 'conformance-r1-' },
    throttling: { byStatus: {}, retried: 0, exhausted: 0, waitedMs: 0, maxWaitMs: 60000 },
    seed: 7,
    ok: false,
  };
}

const others: CaseResult[] = [
  { ...failed, id: 'listPets.ok', outcome: 'passed', checks: [], exchanges: [] },
  { ...failed, id: 'auth.wwwAuthenticate', level: 'advice', outcome: 'warned', reason: 'no WWW-Authenticate' },
  { ...failed, id: 'getPet.existing', outcome: 'skipped', reason: 'read-only', checks: [], exchanges: [] },
];

describe('curl rendering', () => {
  it('quotes for the shell and shows the redacted header', () => {
    const curl = renderCurl(failed.exchanges[0]!.request);
    expect(curl).toBe(
      `curl -sS -i -X POST 'http://h/v1/pets' -H 'Authorization: Bearer [REDACTED]' -H 'Content-Type: application/json' --data-raw '{"name":"o'\\''brien"}'`,
    );
  });
});

describe('pretty', () => {
  const text = renderPretty(report([failed, ...others]));
  const lines = text.trimEnd().split('\n');

  it('has one line per case and details for the failure', () => {
    for (const id of ['createPet.full', 'listPets.ok', 'auth.wwwAuthenticate', 'getPet.existing'])
      expect(lines.filter((l) => /^(PASS|FAIL|WARN|SKIP) /.test(l) && l.includes(` ${id} `)).length).toBe(1);
    expect(text).toContain("curl -sS -i -X POST 'http://h/v1/pets' -H 'Authorization: Bearer [REDACTED]'");
    expect(text).toContain('status: 200');
    expect(text).toContain('/id must be integer');
    expect(text).toContain('body: {"id":"1"}\\u0000');
  });

  it('shows the status table, the created count, and ends with the summary line alone', () => {
    expect(text).toMatch(/createPet\s+POST \/pets\s+201\s+createPet\.full/);
    expect(text).toMatch(
      /getPet\s+GET \/pets\/\{petId\}\s+404\s+NOT COVERED \(expected but not answered: getPet\.unknown\)/,
    );
    expect(text).toContain('Created 2 animals named conformance-r1-*');
    expect(lines.at(-1)).toBe('1 passed, 1 failed, 1 skipped');
  });

  it('says how many animals were created and lists ten ids at most, counting the rest and those without an id', () => {
    const created = (count: number, ids: number[]): string => {
      const r = report([failed]);
      r.created = { count, ids, namePrefix: 'conformance-r1-' };
      return renderPretty(r)
        .split('\n')
        .find((l) => l.startsWith('Created'))!;
    };
    expect(created(2, [5, 6])).toBe('Created 2 animals named conformance-r1-* (ids 5, 6)');
    const many = Array.from({ length: 24 }, (_, i) => i + 1);
    expect(created(25, many)).toBe(
      'Created 25 animals named conformance-r1-* (ids 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 14 more; 1 answered without a numeric id)',
    );
    expect(created(1, [])).toBe('Created 1 animal named conformance-r1-* (1 answered without a numeric id)');
  });

  it("lists a warning's evidence first: the request the check is about, then those that passed", () => {
    const get = (url: string, status: number) => ({
      request: { method: 'GET', url, headers: {} },
      response: { status, headers: {}, body: '[]', bytes: 2 },
      durationMs: 1,
    });
    const warned: CaseResult = {
      ...failed,
      id: 'listPets.limit.invalid.rejected',
      level: 'advice',
      outcome: 'warned',
      checks: [
        { name: 'limit=1: status', ok: true, message: 'got 200' },
        { name: 'limit=-1: status', ok: false, message: 'expected 400, got 200' },
      ],
      exchanges: [get('http://h/v1/pets?limit=1', 200), get('http://h/v1/pets?limit=-1', 200)],
    };
    const curls = renderPretty(report([warned]))
      .split('\n')
      .filter((l) => l.includes('$ curl'));
    expect(curls[0]).toContain('limit=-1');
    expect(curls[1]).toContain('limit=1');
  });

  it('is colourless unless asked, and colour follows TTY and NO_COLOR', () => {
    expect(text).not.toContain('\u001b[');
    expect(renderPretty(report([failed]), { color: true })).toContain('\u001b[');
    expect(shouldColor({ isTTY: true }, {})).toBe(true);
    expect(shouldColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor({ isTTY: false }, {})).toBe(false);
    expect(shouldColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('junit', () => {
  it('escapes markup and control characters', () => {
    expect(escapeXml(`<a b="c" d='e'>&\u0000\u0007`)).toBe(
      '&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;\ufffd\ufffd',
    );
  });

  it('has a testcase per case with failure, skipped and warnings, and the status table', () => {
    const xml = renderJunit(report([failed, ...others]));
    expect(xml.match(/<testcase /g)?.length).toBe(4);
    expect(xml).toContain('name="createPet.full: create &lt;it&gt; &amp; &quot;echo&quot;"');
    expect(xml).toMatch(/<failure message="status: expected 201, got 200" type="required">/);
    expect(xml).toContain('<skipped message="read-only"/>');
    expect(xml).toContain('<system-out>advice not followed');
    expect(xml).toContain('name="status getPet 404" value="NOT COVERED"');
    expect(xml).toContain('<property name="created" value="2"/>');
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
    expect(xml).toContain('tests="4" failures="1" errors="0" skipped="1"');
  });
});

describe('json', () => {
  it('round-trips the report with the status table and created count', () => {
    const parsed = JSON.parse(renderJson(report([failed]))) as Report;
    expect(parsed.statusTable).toHaveLength(2);
    expect(parsed.created.count).toBe(2);
  });
});

describe('html', () => {
  const throttled = {
    ...report([failed, ...others]),
    throttling: { byStatus: { 429: 3 }, retried: 3, exhausted: 0, waitedMs: 1500, maxWaitMs: 60000 },
  };
  const html = renderHtml(throttled);

  it('is one self-contained page: no script, no external asset', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // Links to where a section is written load nothing; any other URL would be an asset.
    const loaded = html.replace(/<a href="https:\/\/[^"]+">/g, '<a>');
    expect(loaded).not.toMatch(/<script|<link|\bsrc=|url\(|@import|https?:\/\/(?!h\/v1)/);
  });

  it('escapes what it shows, and shows a failure with its checks, curl line and body excerpt', () => {
    expect(escapeHtml(`<a b="c">&'`)).toBe('&lt;a b=&quot;c&quot;&gt;&amp;&#39;');
    expect(html).toContain('create &lt;it&gt; &amp; &quot;echo&quot;');
    expect(html).not.toContain('<it>');
    expect(html).toContain('<b>status</b>: expected 201, got 200');
    expect(html).toContain('<li>/id must be integer</li>');
    expect(html).toContain(`$ curl -sS -i -X POST &#39;http://h/v1/pets&#39;`);
    expect(html).toContain('{&quot;id&quot;:&quot;1&quot;}\\u0000');
  });

  it('draws the status matrix and names the throttling', () => {
    // createPet.full got its 201 and failed on the body: the cell is red and says so, not green (issue 36 §7).
    expect(html).toMatch(
      /<tr><th scope="row">createPet<small>POST \/pets<\/small><\/th><td class="miss"[^>]*><b>1 case<\/b> <small class="bad">1 failed<\/small><\/td>/,
    );
    const passing = renderHtml(report([{ ...failed, outcome: 'passed', checks: [] }]));
    expect(passing).toMatch(
      /<th scope="row">createPet<small>POST \/pets<\/small><\/th><td class="hit"[^>]*><b>1 case<\/b><\/td>/,
    );
    const warning = renderHtml(report([{ ...failed, outcome: 'warned' }]));
    expect(warning).toMatch(/<td class="warn"[^>]*><b>1 case<\/b> <small>1 warned<\/small><\/td>/);
    expect(html).toMatch(
      /<td class="miss"[^>]*><b>not covered<\/b><br><small class="bad">1 expected, failed<\/small><\/td>/,
    );
    expect(html).toContain(
      'The server asked the suite to wait 3 × 429 (Retry-After): 3 retried, 1.5 s waited of the 60 s budget',
    );
  });
});

describe('the status cell', () => {
  it('says when a case got another answer it accepts, apart from a failure', () => {
    const r = report([failed]);
    r.statusTable[0] = { ...r.statusTable[0]!, answeredOtherwise: ['listPets.limit.outOfRange'] };
    expect(renderPretty(r)).toMatch(
      /createPet\s+POST \/pets\s+201\s+createPet\.full \(answered otherwise, as allowed: listPets\.limit\.outOfRange\)/,
    );
  });
});

describe('seed and generated requests', () => {
  const generated: Report = {
    ...report([failed]),
    statusTable: [{ ...report([]).statusTable[0]!, generated: 123 }],
    generation: {
      seed: 7,
      requestsPerOperation: 300,
      sent: { listPets: 301, createPet: 300, getPet: 412 },
      shrinkRequests: 9,
      replayRequests: 6,
      replays: 3,
      shrinkBudget: { requests: 400, seconds: 20 },
      skipped: [{ reason: 'the empty name cannot carry the run prefix', count: 4 }],
      created: 150,
      readOnly: false,
    },
  };

  it('every reporter carries the seed, generation on or off', () => {
    for (const r of [report([failed]), generated]) {
      expect(renderPretty(r).split('\n')[0]).toContain('(run r1, seed 7)');
      expect(renderJunit(r)).toContain('<property name="seed" value="7"/>');
      expect((JSON.parse(renderJson(r)) as Report).seed).toBe(7);
    }
  });

  it('says what was generated, created and skipped, and counts generated requests in the status table', () => {
    const text = renderPretty(generated);
    expect(text).toContain(
      'Generated 300 requests per operation with seed 7: sent listPets 301, createPet 300, getPet 412 (6 of them replaying failures, 9 shrinking them; shrinking budget 400 requests and 20 s per failure); 150 animals created by them',
    );
    expect(text).toContain('Skipped 4 generated values: the empty name cannot carry the run prefix');
    expect(text).toMatch(/createPet\s+POST \/pets\s+201\s+createPet\.full, 123 generated/);
    expect(renderJunit(generated)).toContain('name="status createPet 201" value="createPet.full 123 generated"');
    expect(renderPretty(report([failed]))).not.toContain('Generated');
  });
});

describe('control bytes a server sent', () => {
  const hostile: CaseResult = {
    ...failed,
    reason: 'status: expected 201, got 200 \u001b[2J\u001b[8mhidden\r',
    checks: [
      { name: 'schema Pet', ok: false, message: 'body \u001b]0;title\u0007 is not a Pet', details: ['\u009b31m'] },
    ],
  };

  it('reach neither the terminal nor the page: shown as \\xNN; the colours stay ours', () => {
    for (const color of [false, true]) {
      const text = renderPretty(report([hostile]), { color });
      const ours = color ? text.replace(/\u001b\[\d+(;\d+)*m/g, '') : text;
      expect(ours).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(text).toContain('body \\x1b]0;title\\x07 is not a Pet');
      if (color) expect(text).toContain('\u001b[31mFAIL\u001b[39m');
    }
    const html = renderHtml(report([hostile]));
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(html).toContain('\\x1b]0;title\\x07');
  });
});
