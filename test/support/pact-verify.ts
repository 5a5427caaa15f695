/**
 * Verifies a pact file against a provider with pact-js's Verifier, as a server team would, in a process of its
 * own (the verifier's native core prints its report on stdout): `tsx pact-verify.ts PACT[,PACT…] BASE_URL STATES_URL`,
 * the provider's key in PACT_PROVIDER_KEY. The request filter puts the key where the pact's request carries an
 * Authorization header and leaves the others as they are, since their 401 is what they check. Exit 0 when
 * every interaction passes, 1 otherwise.
 */
import { Verifier } from '@pact-foundation/pact';

// The native core reports usage over the network unless told not to: no network beyond 127.0.0.1 here.
process.env.PACT_DO_NOT_TRACK = 'true';
const [pactFiles, providerBaseUrl, statesUrl] = process.argv.slice(2);
const key = process.env.PACT_PROVIDER_KEY ?? '';
// What the docs warn against, for the test that shows why: the key added to every request, those without one too.
const everywhere = process.env.PACT_KEY_EVERYWHERE === '1';

const verifier = new Verifier({
  provider: 'petstore',
  providerBaseUrl: providerBaseUrl!,
  pactUrls: pactFiles!.split(','),
  providerStatesSetupUrl: statesUrl!,
  logLevel: 'warn',
  requestFilter: (req, _res, next) => {
    if (everywhere || req.headers.authorization !== undefined) req.headers.authorization = `Bearer ${key}`;
    next();
  },
});

verifier.verifyProvider().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`verification failed: ${error.message}\n`);
    process.exit(1);
  },
);
