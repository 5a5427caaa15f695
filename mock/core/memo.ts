/**
 * Answers remembered by a text a client controls (a query, a `Host`): at most
 * `entries` of them, none for a text longer than `keyLength`; when full it
 * empties and starts again, so memory stays bounded however many distinct
 * texts arrive. The one home of that policy for every such memory of the mock.
 */
export class TextMemo<V> {
  readonly #map = new Map<string, V>();
  constructor(
    readonly entries: number,
    readonly keyLength: number,
  ) {}

  /** What was remembered for `text`, if anything. */
  get(text: string): V | undefined {
    return this.#map.get(text);
  }

  /** Remembers `value` for `text` (unless the text is too long to keep), and returns it. */
  keep(text: string, value: V): V {
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
  }
}

/** A memory per query text: a client asks the same few queries over and over. */
export function queryMemo<V>(): TextMemo<V> {
  return new TextMemo<V>(256, 128);
}
