// `node --import ./test/support/log-loads.mjs ...`: writes `loaded PACKAGE: URL` to stderr whenever the
// process loads a module of fast-check or @faker-js/faker, so a test can see which heavy packages a path loads.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
const WATCHED = ['/fast-check/', '/@faker-js/faker/'];
export async function load(url, context, next) {
  const hit = WATCHED.find((part) => url.includes('/node_modules' + part));
  if (hit) process._rawDebug('loaded ' + hit.slice(1, -1) + ': ' + url);
  return next(url, context);
}`)}`,
);
