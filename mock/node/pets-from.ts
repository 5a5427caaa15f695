/**
 * `--pets-from URL` (`petsFrom`): the pets another server of this interface
 * lists, read with GET only: the unfiltered listing and each status's listing
 * at the largest `limit` the interface allows (it defines no further pages),
 * merged by id. Every answer must be a 200 with a JSON array of Pets, or
 * nothing is taken: the mock never starts half-filled. Bounded: each answer
 * within a time and a size, no redirect followed.
 */

import { redactKeys, urlUserInfo } from '../../guard/redact.ts';
import { getValidator, listPetsLimit, type Pet, petStatuses } from '../../spec/index.ts';
import { badOption, PetstoreMockError } from '../core/errors.ts';
import { validatePets } from '../core/replace-pets.ts';

/** Where to read the pets: the source's base URL (ending in its version, e.g. `https://staging/v1`) and its key. */
export interface PetsSource {
  url: string;
  /** Sent as `Authorization: Bearer KEY` (the command takes it from PETSTORE_SOURCE_API_KEY, never a flag). */
  apiKey?: string;
  /** Per request, in ms (default 10000). */
  timeoutMs?: number;
}

/** What was read: the pets, the listings that came back full (the source may hold more), the requests sent. */
interface PetsRead {
  pets: Pet[];
  fullListings: string[];
  requests: number;
}

/** Each answer may be at most this long. */
const SOURCE_BODY_LIMIT = 8 * 1024 * 1024;

const failed = (message: string) => new PetstoreMockError('PETSTORE_MOCK_SOURCE_FAILED', message);

async function readCapped(response: Response, where: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > SOURCE_BODY_LIMIT) {
      await reader.cancel();
      throw failed(`${where} answered more than ${SOURCE_BODY_LIMIT} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function listing(base: string, query: string, source: PetsSource): Promise<Pet[]> {
  const where = `GET ${base}/pets?${query}`;
  let response: Response;
  try {
    response = await fetch(`${base}/pets?${query}`, {
      method: 'GET',
      redirect: 'manual',
      headers: { accept: 'application/json', ...(source.apiKey ? { authorization: `Bearer ${source.apiKey}` } : {}) },
      signal: AbortSignal.timeout(source.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const why =
      e.name === 'TimeoutError'
        ? `no answer within ${source.timeoutMs ?? 10_000} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw failed(`${where} failed: ${why}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const hint = response.status === 401 ? ' (set PETSTORE_SOURCE_API_KEY to its key)' : '';
    throw failed(`${where} answered ${response.status}, not 200${hint}`);
  }
  const text = await readCapped(response, where);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw failed(`${where} did not answer JSON`);
  }
  const validate = getValidator('Pets');
  if (!validate(data)) throw failed(`${where} did not answer a JSON array of Pets, as the interface says it must`);
  return data as Pet[];
}

/**
 * Reads the source's pets; throws a PetstoreMockError (`PETSTORE_MOCK_SOURCE_FAILED`, or `..._INVALID_PETS`) and
 * takes nothing when any answer is not what the interface says. Its messages never carry the source's key or
 * credentials in its URL, whatever a transport error quotes.
 */
export async function readPetsFrom(source: PetsSource): Promise<PetsRead> {
  try {
    return await read(source);
  } catch (error) {
    if (!(error instanceof PetstoreMockError)) throw error;
    const secrets = [source.apiKey ?? '', ...urlUserInfo(source.url)].filter((s) => s !== '');
    if (secrets.length === 0) throw error;
    const hidden = redactKeys(error.message, secrets);
    throw error.option === undefined
      ? new PetstoreMockError(error.code, hidden)
      : badOption(error.option, redactKeys(error.problem ?? '', secrets));
  }
}

async function read(source: PetsSource): Promise<PetsRead> {
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    throw badOption('petsFrom', `is not a URL: ${JSON.stringify(source.url)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw badOption(
      'petsFrom',
      `must be an http(s) base URL without a query, like https://staging.example/v1, got ${JSON.stringify(source.url)}`,
    );
  const base = url.href.replace(/\/+$/, '');
  const limit = listPetsLimit().maximum;
  const queries = [`limit=${limit}`, ...petStatuses().map((s) => `status=${s}&limit=${limit}`)];
  const byId = new Map<number, Pet>();
  const fullListings: string[] = [];
  for (const query of queries) {
    const pets = await listing(base, query, source);
    const status = /^status=(\w+)/.exec(query)?.[1];
    for (const pet of pets) {
      // Checked before merging: two ids beyond 2^53 that JSON rounded to one number must not become one pet.
      if (!Number.isSafeInteger(pet.id) || !Number.isSafeInteger(pet.categoryId))
        throw new PetstoreMockError(
          'PETSTORE_MOCK_INVALID_PETS',
          `GET ${base}/pets?${query} listed a pet whose id or categoryId is beyond 2^53, which the mock cannot hold exactly`,
        );
      if (status !== undefined && pet.status !== status)
        throw failed(
          `GET ${base}/pets?${query} listed pet ${pet.id} with status ${String(pet.status)}: the filter is not honoured`,
        );
      if (!byId.has(pet.id)) byId.set(pet.id, pet);
    }
    if (pets.length >= limit) fullListings.push(`?${query}`);
  }
  const pets = [...byId.values()].sort((a, b) => a.id - b.id);
  try {
    validatePets(pets);
  } catch (error) {
    throw new PetstoreMockError(
      'PETSTORE_MOCK_INVALID_PETS',
      `${base} lists pets the mock cannot hold exactly: ${(error as Error).message}`,
    );
  }
  return { pets, fullListings, requests: queries.length };
}
