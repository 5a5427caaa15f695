/** The one function the devtools test uses from chrome-har (which ships no types). */
declare module 'chrome-har' {
  /** Builds a HAR from DevTools protocol messages (`{ method, params }`, in the order received). */
  export function harFromMessages(
    messages: { method: string; params: unknown }[],
    options?: { includeTextFromResponseBody?: boolean },
  ): unknown;
}
