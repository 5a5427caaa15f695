// `node --import ./test/support/log-faker-loads.mjs ...`: writes `loaded faker: URL` to stderr
// whenever the process loads a module of @faker-js/faker, so a test can see whether it did.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  if (url.includes('/@faker-js/faker/')) process._rawDebug('loaded faker: ' + url);
  return next(url, context);
}`)}`,
);
