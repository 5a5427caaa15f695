/**
 * A failure says how to fix it: what the body should have been (from the document), the contract section as a
 * link to where it is written, code set as code in the HTML (no literal backticks), and the failures listed by
 * cause, as the causes are.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { renderHtml, renderPretty } from '../report/index.ts';
import { CONTRACT_PAGE } from '../report/sections.ts';
import { startFakePetstore } from './fake-petstore.ts';

describe('failures that say how to fix them', async () => {
  const fake = await startFakePetstore({ violations: ['notFoundWithoutBody', 'categoryIdAsString', 'basicAccepted'] });
  const report = await runConformance({ baseUrl: fake.url, apiKey: fake.apiKey }).finally(() => fake.close());
  const html = renderHtml(report);
  const pretty = renderPretty(report);

  it('an empty Error body names the Error the contract expects, fields and types', () => {
    const unknown = report.cases.find((c) => c.id === 'getPet.unknown');
    expect(unknown?.outcome).toBe('failed');
    const details = unknown?.checks.filter((c) => !c.ok).flatMap((c) => c.details ?? []);
    expect(details).toContain('expected Error {code: string, message: string, status: integer}');
    expect(html).toContain('expected Error {code: string, message: string, status: integer}');
    expect(pretty).toContain('expected Error {code: string, message: string, status: integer}');
  });

  it('links each cited section to its heading on the contract page', () => {
    expect(html).toContain(
      `<a href="${CONTRACT_PAGE}#3-get-an-animal-deprecated">Endpoints §3 Get an animal (deprecated)</a>`,
    );
    expect(html).toContain(`<a href="${CONTRACT_PAGE}#authentication">Authentication</a>`);
  });

  it('sets code as code: no backtick is shown literally', () => {
    const text = html.replace(/<style>[\s\S]*?<\/style>/, '');
    expect(report.causes?.some((c) => c.statement.includes('`'))).toBe(true);
    expect(text).toContain('<code>Pet.categoryId</code>');
    expect(text).not.toContain('`');
  });

  it('lists the failures in the order of their causes', () => {
    const failures = html.slice(html.indexOf('<h2>Failures, by cause'), html.indexOf('<h2>Advice not followed'));
    const shown = [...failures.matchAll(/<article class="case failed" id="([^"]+)"/g)].map((m) => m[1]);
    // A case explained by two causes is listed under the first.
    const byCause = [...new Set((report.causes ?? []).flatMap((c) => [...c.cases, ...(c.consequences ?? [])]))];
    const failed = report.cases.filter((c) => c.outcome === 'failed').map((c) => c.id);
    expect(shown).toEqual([
      ...byCause.filter((id) => failed.includes(id)),
      ...failed.filter((id) => !byCause.includes(id)),
    ]);
    // Not merely the cases' own order: the causes reorder them here.
    expect(shown).not.toEqual(failed);
  });
});
