/**
 * The query string as the handler reads it: URLSearchParams's parsing
 * (WHATWG application/x-www-form-urlencoded), without building one when no
 * value needs decoding, which is the common case and a measurable share of a
 * listing's cost.
 */

/** The values of a query's parameters, as URLSearchParams gives them. */
export interface QueryParams {
  /** Every value of `name`, in order; empty when absent. */
  getAll(name: string): string[];
}

const EMPTY: QueryParams = { getAll: () => [] };

/** Parses a raw query (without `?`); the same values as `new URLSearchParams(raw)`. */
export function parseQuery(query: string): QueryParams {
  // URLSearchParams drops one leading `?` (so `/v1/pets??limit=5` asks for limit 5): so does this.
  const raw = query.startsWith('?') ? query.slice(1) : query;
  if (raw === '') return EMPTY;
  // Escapes and `+` need decoding; leave those to the platform.
  if (raw.includes('%') || raw.includes('+')) return new URLSearchParams(query);
  return {
    getAll(name) {
      const values: string[] = [];
      let from = 0;
      while (from <= raw.length) {
        let end = raw.indexOf('&', from);
        if (end === -1) end = raw.length;
        if (end > from) {
          const equals = raw.indexOf('=', from);
          const hasValue = equals !== -1 && equals < end;
          const key = raw.slice(from, hasValue ? equals : end);
          if (key === name) values.push(hasValue ? raw.slice(equals + 1, end) : '');
        }
        from = end + 1;
      }
      return values;
    },
  };
}
