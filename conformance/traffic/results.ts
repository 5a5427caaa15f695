/**
 * The results of judging recorded traffic, as a run's: one CaseResult per
 * entry and side (its id `e12.server`), judged by the suite's caseOutcome,
 * bounded (past a number kept, results are counted, not listed), and the
 * `--side` limit (the other side's findings are listed, not failures).
 */
import { basename } from 'node:path';
import { CONTRACT_SECTIONS } from '../../spec/generated/sections.ts';
import { caseOutcome } from '../judge/verdict.ts';
import { keepForReport } from '../run/keep.ts';
import type { CaseResult, CheckResult, Exchange, Level, Side, Summary } from '../types.ts';
import type { RecordedEntry } from './entry.ts';

/** Contract sections by operation, for the reports. */
const SECTIONS: Record<string, string> = {
  listPets: CONTRACT_SECTIONS.listAnimals,
  createPet: CONTRACT_SECTIONS.addAnAnimal,
  getPet: CONTRACT_SECTIONS.getAnAnimal,
};

/** Results listed in a report: failures and warnings, then passes, each up to its bound. */
const MAX_LISTED = { notPassed: 1000, passed: 500 };

/** Where an entry was: `file.har #3, 2026-11-26T10:00:00.000Z, page "Pets"`. */
export function entryLabel(entry: RecordedEntry): string {
  return `${basename(entry.file)} #${entry.index}`;
}

/** Collects results, with exact counts whatever is listed. */
interface ResultSink {
  add(
    entry: RecordedEntry,
    side: Side,
    operationId: string,
    checks: CheckResult[],
    exchanges: Exchange[],
    level?: Level,
  ): void;
  /** The listed results, the counts of all, and how many were not listed. */
  done(): { results: CaseResult[]; summary: Summary; omitted: number; where: Map<string, RecordedEntry> };
}

/** Makes a sink; `side` is whose findings fail the run (`both`, or one side: the other's are listed as skipped). */
export function createResultSink(side: 'both' | 'client' | 'server', strict: boolean): ResultSink {
  const results: CaseResult[] = [];
  const where = new Map<string, RecordedEntry>();
  const summary: Summary = { passed: 0, failed: 0, warned: 0, info: 0, skipped: 0, notApplicable: 0, total: 0 };
  let listedPassed = 0;
  let listedOther = 0;
  let omitted = 0;
  return {
    add(entry, own, operationId, checks, exchanges, level = 'required') {
      const id = `e${entry.seq}.${own}${level === 'advice' ? '.advice' : ''}`;
      const sectionKey = checks.some((c) => !c.ok && c.name === 'request key')
        ? CONTRACT_SECTIONS.authentication
        : SECTIONS[operationId];
      const req = entry.exchange.request;
      let path = req.url;
      try {
        const u = new URL(req.url);
        path = u.pathname + u.search;
      } catch {}
      let verdict = caseOutcome({ level }, checks, {}, strict);
      const counted = side === 'both' || (side === 'server' ? own !== 'client' : own === 'client');
      if (!counted && verdict.outcome !== 'passed')
        verdict = {
          outcome: 'skipped',
          reason: `not judged: --side ${side} (the ${own === 'across' ? 'server (across entries)' : own}'s finding: ${verdict.reason})`,
        };
      summary[verdict.outcome]++;
      summary.total++;
      const passed = verdict.outcome === 'passed';
      if (passed ? listedPassed >= MAX_LISTED.passed : listedOther >= MAX_LISTED.notPassed) {
        omitted++;
        return;
      }
      if (passed) listedPassed++;
      else listedOther++;
      for (const ex of exchanges) keepForReport(ex);
      const page = entry.page === undefined ? '' : `, page ${JSON.stringify(entry.page)}`;
      results.push({
        id,
        title: `${own}: ${req.method} ${path} (${entryLabel(entry)}, ${entry.startedAt}${page})`,
        level,
        section: SECTIONS[operationId] === undefined ? 'Endpoints' : (sectionKey ?? 'Endpoints'),
        ...(level === 'advice'
          ? { basis: 'RFC 9745 (Deprecation), RFC 8594 (Sunset): the operation is deprecated' }
          : {}),
        operationId,
        covers: [],
        ...verdict,
        checks,
        exchanges,
        durationMs: entry.exchange.durationMs,
        side: own,
      });
      where.set(id, entry);
    },
    done: () => ({ results, summary, omitted, where }),
  };
}
