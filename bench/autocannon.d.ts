/** The small part of autocannon 8's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Sent in turn on each connection, over and over, instead of `method`, `headers` and `body`. */
    requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[];
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** Requests to send in all, instead of a duration; the run ends when every one has been answered. */
    amount?: number;
    timeout?: number;
    /** Milliseconds between samples; a run stops only on a sample, so this bounds how far it overruns `duration`. */
    sampleInt?: number;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: { total: number; average: number };
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
