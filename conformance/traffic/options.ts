/** Options of judgeTraffic (judge-traffic.ts): below both the judge and its report, which read them. */
export interface TrafficOptions {
  /** HAR files, judged as one run in time order. */
  files: string[];
  /** The base URL (ending in /v1): entries under it are judged, others counted by host. */
  baseUrl: string;
  /** Whose findings fail the run: both (the default), or only the client's or the server's. */
  side?: 'both' | 'client' | 'server';
  /** The date getPet calls are judged at for its sunset (default: each entry's own time). */
  asOf?: string | Date;
  /** Advice fails, and Pets may carry no extra fields. */
  strict?: boolean;
  /** Header names whose values are secrets, hidden in every output (Authorization and cookies always are). */
  secretHeaders?: string[];
  /** Keep the entries read for the har reporter (bounded as a run's exchange log). */
  exchangeLog?: boolean;
  /** Bytes one entry may span before the file is refused. */
  maxEntryBytes?: number;
}
