/**
 * The error base both packages' error families extend (the mock's PetstoreMockError, the suite's
 * ConformanceError): a stable `code`, and for a bad option the option's name and what is wrong with it.
 */

/**
 * An error with a stable `code`; one about an option names it (`option`, as the library spells it) and says what is
 * wrong (`problem`, the message after the name), so a command can print its own flag in the name's place.
 */
export class CodedError<Code extends string = string> extends Error {
  readonly code: Code;
  /** The option the error concerns, as the library names it (`seed`, `timeoutMs`), when it concerns one. */
  readonly option?: string;
  /** The message without the option's name (`must be an integer, got 1.5`), when it reads as the name then this. */
  readonly problem?: string;
  constructor(code: Code, message: string, about?: { option: string; problem?: string }) {
    super(message);
    this.code = code;
    if (about) {
      this.option = about.option;
      if (about.problem !== undefined) this.problem = about.problem;
    }
  }
}
