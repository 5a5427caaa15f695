/**
 * A synthetic HAR of a given size, written at test time (never committed): the
 * entries a browser records against the mock (a listing, a create, a fetch),
 * repeated with their ids and times moving on, each listing a page of pets.
 * Written as a stream, with backpressure, so the writer's memory stays small.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

function entry(i: number, base: string): string {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString();
  const headers = [
    { name: 'Authorization', value: 'Bearer sk-big-har-key-000111' },
    { name: 'Accept', value: '*/*' },
  ];
  const kind = i % 3;
  const pets = Array.from({ length: 20 }, (_, k) => ({
    id: k + 1,
    name: `pet-${k}`,
    categoryId: 1,
    status: 'available',
  }));
  const [method, url, status, body, post] =
    kind === 0
      ? ['GET', `${base}/pets?limit=20`, 200, JSON.stringify(pets), undefined]
      : kind === 1
        ? [
            'POST',
            `${base}/pets`,
            201,
            JSON.stringify({ id: 1000 + i, name: `n${i}`, categoryId: 2 }),
            JSON.stringify({ name: `n${i}`, categoryId: 2 }),
          ]
        : [
            'GET',
            `${base}/pets/${1000 + i - 1}`,
            200,
            JSON.stringify({ id: 1000 + i - 1, name: `n${i - 1}`, categoryId: 2 }),
            undefined,
          ];
  const resHeaders = [{ name: 'Content-Type', value: 'application/json' }];
  if (kind === 2)
    resHeaders.push(
      { name: 'Deprecation', value: '@1735689600' },
      { name: 'Sunset', value: 'Thu, 05 Dec 2030 00:00:00 GMT' },
    );
  return JSON.stringify({
    startedDateTime: at,
    time: 3,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: post ? [...headers, { name: 'Content-Type', value: 'application/json' }] : headers,
      queryString: [],
      ...(post ? { postData: { mimeType: 'application/json', text: post } } : {}),
      headersSize: -1,
      bodySize: post?.length ?? 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: resHeaders,
      content: { size: body.length, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 3, receive: 0 },
  });
}

/** Writes a HAR of at least `bytes` bytes to `path`; returns the entries written. */
export async function writeBigHar(path: string, bytes: number, base: string): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let i = 0;
  const write = async (text: string): Promise<void> => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"log":{"version":"1.2","creator":{"name":"petstore big-har","version":"1"},"pages":[],"entries":[\n');
  while (written < bytes) {
    let batch = '';
    for (let k = 0; k < 200; k++, i++) batch += `${i === 0 ? '' : ',\n'}${entry(i, base)}`;
    await write(batch);
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'finish');
  return i;
}
