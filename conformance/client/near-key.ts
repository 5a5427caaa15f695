/**
 * Wrong keys one edit away from the run's key: what a server that compares keys loosely accepts (by length only,
 * as a prefix, without regard to case). The key is a secret, so the suite makes these itself, never shows them, and
 * hides them in every output as it hides the key.
 */

/** Every kind of near key, in the order the cases run. */
export const NEAR_KEYS = ['lastChanged', 'lastMissing', 'oneMore', 'otherCase'] as const;

/** One kind of near key. */
export type NearKey = (typeof NEAR_KEYS)[number];

/** What each kind is, as a report says it (the key itself never shows). */
export const NEAR_KEY_WORDS: Readonly<Record<NearKey, string>> = {
  lastChanged: 'the key with its last character changed',
  lastMissing: 'the key without its last character',
  oneMore: 'the key with one character more at its end',
  otherCase: 'the key with its letters in the other case',
};

/**
 * The near key of `kind` for `key`, or undefined when `key` has none (no letter to change the case of; a key of
 * one character, whose shorter form is the empty token another case sends and whose changed form is another key).
 */
export function nearKey(key: string, kind: NearKey): string | undefined {
  const last = key.at(-1);
  if (last === undefined) return undefined;
  switch (kind) {
    case 'lastChanged':
      // A key of one character changed is just another key (the wrong-key cases send one), and a secret of one
      // character that shares nothing with the key would be hidden wherever it stands alone (`127.0.0.1`).
      if (key.length === 1) return undefined;
      // A digit for a digit or anything else: never the same letter in the other case (otherCase's own variant).
      return key.slice(0, -1) + (last === '0' ? '1' : '0');
    case 'lastMissing':
      return key.length > 1 ? key.slice(0, -1) : undefined;
    case 'oneMore':
      return `${key}0`;
    case 'otherCase': {
      const swapped = [...key].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
      return swapped === key ? undefined : swapped;
    }
  }
}

/** Every near key of `key` that exists: secrets, like the key. */
export function nearKeys(key: string): string[] {
  return NEAR_KEYS.map((kind) => nearKey(key, kind)).filter((k): k is string => k !== undefined);
}
