/** The minimal server's bodies, taken from a running mock so that they are the mock's own answers, byte for byte. */
import type { FixedAnswer, FixedAnswers, RouteName } from './minimal.ts';

/** The mock's control endpoint that puts it back to its seeded pets (the handler rung answers it too). */
export const RESET_PATH = '/__control/reset';

/** Headers the mock sends by design on the routes loaded, besides Content-Type, Content-Length and Location. */
const ANSWER_HEADERS = ['deprecation', 'sunset', 'link'];

/** The new pet every POST of the bench sends. */
const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 3, status: 'available' });

/** What each benchmarked route sends, relative to a base URL ending in `/v1`. */
export const ROUTE_REQUESTS = {
  list: { path: '/pets?limit=20', method: 'GET' },
  sold: { path: '/pets?status=sold&limit=100', method: 'GET' },
  create: { path: '/pets', method: 'POST', body: NEW_PET },
  get: { path: '/pets/1', method: 'GET' },
} as const;

/** What the bench loads: one route, or `mixed`, {@link MIXED_ROUTES} over and over. */
export type LoadName = RouteName | 'mixed';

/** How a load is named in tables. */
export const ROUTE_TITLES: Record<LoadName, string> = {
  list: 'GET /v1/pets?limit=20',
  sold: 'GET /v1/pets?status=sold&limit=100',
  get: 'GET /v1/pets/{id}',
  create: 'POST /v1/pets',
  mixed: 'mixed, 8 reads to 1 POST',
};

/** The mixed load: 8 reads to 1 create, in this order, over and over; each create makes the next listings new. */
export const MIXED_ROUTES: readonly RouteName[] = [
  'list',
  'get',
  'list',
  'sold',
  'list',
  'get',
  'list',
  'sold',
  'create',
];

/** Options for {@link captureAnswers}. */
interface CaptureOptions {
  /** The mock's base URL, ending in `/v1`. */
  base: string;
  apiKey: string;
}

async function ask(base: string, apiKey: string, route: RouteName): Promise<FixedAnswer> {
  const r = ROUTE_REQUESTS[route];
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if ('body' in r) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${r.path}`, { method: r.method, headers, body: 'body' in r ? r.body : null });
  // The headers a deprecated operation's answer carries are part of the answer (getPet's; none on the other routes).
  const carried: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) carried[name] = value;
  }
  const answer: FixedAnswer = { status: response.status, body: await response.text() };
  if (Object.keys(carried).length > 0) answer.headers = carried;
  if (answer.status >= 300)
    throw new Error(`the mock answered ${answer.status} to ${r.method} ${r.path}: ${answer.body}`);
  return answer;
}

/** Asks the mock once per route and for its pets, then resets it (`POST /__control/reset`), so the pet it created is gone. */
export async function captureAnswers({ base, apiKey }: CaptureOptions): Promise<FixedAnswers> {
  const pets = await fetch(new URL('../__control/pets', `${base}/`));
  const answers: FixedAnswers = {
    list: await ask(base, apiKey, 'list'),
    sold: await ask(base, apiKey, 'sold'),
    get: await ask(base, apiKey, 'get'),
    create: await ask(base, apiKey, 'create'),
    pets: await pets.text(),
  };
  await resetMock(base);
  return answers;
}

/** Puts a mock back to its seeded pets; the bench calls it after each round of POSTs. */
export async function resetMock(base: string): Promise<void> {
  const response = await fetch(new URL(RESET_PATH, base), { method: 'POST' });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`POST ${RESET_PATH} answered ${response.status}`);
}
