/**
 * Answers remembered by a text a client controls (a query, a `Host`): at most
 * `entries` of them, none for a text longer than `keyLength`; when full it
 * empties and starts again, so memory stays bounded however many distinct
 * texts arrive. The one home of that policy for every such memory of the mock.
 */
export class TextMemo<V> {
  readonly #map = new Map<string, V>();
  // The text last found, and its answer: a client sends the same text again and again, and comparing it costs
  // less than hashing it.
  #lastText: string | undefined;
  #lastValue: V | undefined;
  constructor(
    readonly entries: number,
    readonly keyLength: number,
  ) {}

  /** What was remembered for `text`, if anything. */
  get(text: string): V | undefined {
    if (text === this.#lastText) return this.#lastValue;
    const value = this.#map.get(text);
    if (value !== undefined) {
      this.#lastText = text;
      this.#lastValue = value;
    }
    return value;
  }

  /** Remembers `value` for `text` (unless the text is too long to keep), and returns it. */
  keep(text: string, value: V): V {
    // What was found last may be the text now kept anew (another answer), or emptied below.
    this.#lastText = undefined;
    this.#lastValue = undefined;
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
    this.#lastText = undefined;
    this.#lastValue = undefined;
  }
}

/** A memory per query text: a client asks the same few queries over and over. */
export function queryMemo<V>(): TextMemo<V> {
  return new TextMemo<V>(256, 128);
}
