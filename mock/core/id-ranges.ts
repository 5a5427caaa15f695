/**
 * A set of pet ids kept as sorted, disjoint ranges: what coverage remembers of the pets a client created. A store
 * assigns ids one after another, so a run of creates is one range, however long, and a create after a reset lands
 * in a range already held: adding costs a compare or two and no hash, and memory follows the runs, not the ids.
 */
export class IdRanges {
  /** First and last id of each range, ascending; a range ends at least two before the next starts. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** The range the last id was added to or found in: the next create's id is most often in it or just past it. */
  private last = -1;

  /** @param maxRanges Ranges kept at most; an id that would need one more is not added. */
  constructor(private readonly maxRanges: number) {}

  /** Ranges held. */
  get size(): number {
    return this.starts.length;
  }

  has(id: number): boolean {
    const at = this.rangeBefore(id);
    return at >= 0 && id <= this.ends[at]!;
  }

  /** Adds `id` (a safe integer); false when it would need a range beyond the limit. */
  add(id: number): boolean {
    const { starts, ends } = this;
    const last = this.last;
    // The common case: the id is in the last range touched, or the next one after it.
    const at = last >= 0 && id >= starts[last]! && id <= ends[last]! + 1 ? last : this.rangeBefore(id);
    if (at >= 0 && id <= ends[at]!) {
      this.last = at;
      return true;
    }
    if (at >= 0 && id === ends[at]! + 1) {
      ends[at] = id;
      // Reaching the next range joins the two.
      if (at + 1 < starts.length && starts[at + 1] === id + 1) {
        ends[at] = ends[at + 1]!;
        starts.splice(at + 1, 1);
        ends.splice(at + 1, 1);
      }
      this.last = at;
      return true;
    }
    if (at + 1 < starts.length && starts[at + 1] === id + 1) {
      starts[at + 1] = id;
      this.last = at + 1;
      return true;
    }
    if (starts.length >= this.maxRanges) return false;
    starts.splice(at + 1, 0, id);
    ends.splice(at + 1, 0, id);
    this.last = at + 1;
    return true;
  }

  /** The last range starting at or before `id`, by binary search; -1 when none does. */
  private rangeBefore(id: number): number {
    const { starts } = this;
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (starts[mid]! <= id) low = mid + 1;
      else high = mid - 1;
    }
    return high;
  }
}
