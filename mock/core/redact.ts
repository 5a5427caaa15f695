/** The key redaction the journal and the log use: it lives in spec/ so that the suite, which must not import the mock, shares it. */
export * from '../../spec/redact.ts';
