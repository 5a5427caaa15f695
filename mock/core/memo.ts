/**
 * Answers remembered by a text a client controls (a query, a `Host`): at most
 * `entries` of them, none for a text longer than `keyLength`; when full it
 * empties and starts again, so memory stays bounded however many distinct
 * texts arrive. The one home of that policy for every such memory of the mock.
 * Its four recent finds, the last compared first, are written out again where
 * the key is not one text: coverage's row counters (an operation and a status),
 * the Pact recorder's kinds (five parts) and the journal's header sets; a
 * change to how many are kept, or in what order they are compared, goes to all four.
 */
export class TextMemo<V> {
  readonly #map = new Map<string, V>();
  // The texts found last, and their answers: a client sends the same few texts again and again, often in turn (a
  // listing, a pet, a listing, a create), and comparing a text with a few costs less than hashing it (a text new
  // from the socket is hashed whole) and probing the map. A text found in the map takes the oldest slot.
  readonly #texts: (string | undefined)[] = Array.from({ length: RECENT }, () => undefined);
  readonly #values: (V | undefined)[] = Array.from({ length: RECENT }, () => undefined);
  /** The slot found last. */
  #last = 0;
  /** The slot the next text found in the map takes: the oldest. */
  #next = 0;
  constructor(
    readonly entries: number,
    readonly keyLength: number,
  ) {}

  /** What was remembered for `text`, if anything. */
  get(text: string): V | undefined {
    const texts = this.#texts;
    // The one found last first: a client that sends one text over and over pays one compare, as it did before.
    const last = this.#last;
    if (texts[last] === text) return this.#values[last];
    for (let i = 0; i < RECENT; i++)
      if (i !== last && texts[i] === text) {
        this.#last = i;
        return this.#values[i];
      }
    const value = this.#map.get(text);
    if (value !== undefined) {
      const at = this.#next;
      texts[at] = text;
      this.#values[at] = value;
      this.#last = at;
      this.#next = at === RECENT - 1 ? 0 : at + 1;
    }
    return value;
  }

  /** Remembers `value` for `text` (unless the text is too long to keep), and returns it. */
  keep(text: string, value: V): V {
    // What was found lately may be the text now kept anew (another answer), or emptied below.
    this.#forgetRecent();
    if (text.length <= this.keyLength) {
      if (this.#map.size >= this.entries) this.#map.clear();
      this.#map.set(text, value);
    }
    return value;
  }

  /** Texts remembered now. */
  get size(): number {
    return this.#map.size;
  }

  clear(): void {
    this.#map.clear();
    this.#forgetRecent();
  }

  #forgetRecent(): void {
    this.#texts.fill(undefined);
    this.#values.fill(undefined);
  }
}

/**
 * How many texts found last a memo compares before it hashes: the mixed load's four targets (a listing, a sold
 * listing, a pet, a create), and as many queries, paths or listings, all found without a lookup.
 */
const RECENT = 4;

/** A memory per query text: a client asks the same few queries over and over. */
export function queryMemo<V>(): TextMemo<V> {
  return new TextMemo<V>(256, 128);
}
