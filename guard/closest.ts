/**
 * The closest known name to one a user mistyped (an option, a case id), so an
 * error can say `did you mean apiKeys?`: the one edit-distance helper the mock
 * and the suite share.
 */

/** Edits (insert, delete, replace, swap two neighbours) between `a` and `b`, ignoring case. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // Rows of the optimal-string-alignment table: two back for the swap, one back, and this one.
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[t.length]!;
}

/**
 * The known name nearest to `name`, when one is near enough to be what was meant (a different case, or at most a
 * third of its letters wrong, at least 1 and at most 3); undefined otherwise. Ties go to the first in `known`.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name, candidate);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** `; did you mean X?` when a known name is near `name`, else the empty string: the end of an error's line. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const near = closestName(name, known);
  return near === undefined ? '' : `; did you mean ${near}?`;
}
