import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { checkErrorBody, checkJsonMediaType, checkSchema, checkStatus, expectResponse, mediaType } from './checks.ts';

function exchange(status: number, json: unknown, contentType = 'application/json; charset=utf-8'): Exchange {
  const body = json === undefined ? '' : JSON.stringify(json);
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: {
      status,
      headers: { 'content-type': contentType },
      body,
      bytes: body.length,
      ...(json === undefined ? {} : { json }),
    },
    durationMs: 1,
  };
}

const pet = { id: 1, name: 'rex', categoryId: 2, status: 'available' };

describe('checks', () => {
  it('status accepts any allowed status', () => {
    expect(checkStatus(exchange(400, {}), [200, 400]).ok).toBe(true);
    expect(checkStatus(exchange(500, {}), [200, 400])).toMatchObject({
      ok: false,
      message: 'expected 200 or 400, got 500',
    });
  });

  it('media type ignores parameters and case, and rejects others', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(checkJsonMediaType(exchange(200, [])).ok).toBe(true);
    expect(checkJsonMediaType(exchange(200, [], 'text/plain')).ok).toBe(false);
  });

  it('schema reports ajv errors with instance paths; strict closes Pet', () => {
    const bad = checkSchema(exchange(200, [pet, { ...pet, id: '2' }]), 'Pets');
    expect(bad.ok).toBe(false);
    expect(bad.details?.join('\n')).toContain('/1/id');
    expect(checkSchema(exchange(200, [{ ...pet, extra: 1 }]), 'Pets').ok).toBe(true);
    expect(checkSchema(exchange(200, [{ ...pet, extra: 1 }]), 'Pets', true).ok).toBe(false);
  });

  it('the Error body must carry the HTTP status', () => {
    expect(checkErrorBody(exchange(404, { code: 'x', message: 'y', status: 404 })).every((c) => c.ok)).toBe(true);
    expect(checkErrorBody(exchange(404, { code: 'x', message: 'y', status: 400 })).some((c) => !c.ok)).toBe(true);
    expect(checkErrorBody(exchange(404, undefined))[0]).toMatchObject({
      name: 'Error body',
      ok: false,
      message: 'body is empty',
    });
  });

  it('expectResponse picks the schema by status and flags 5xx and transport errors', () => {
    const ok = expectResponse(exchange(400, { code: 'c', message: 'm', status: 400 }), {
      statuses: { 200: 'Pets', 400: 'Error' },
    });
    expect(ok.every((c) => c.ok)).toBe(true);
    const five = expectResponse(exchange(503, { code: 'c', message: 'm', status: 503 }), { statuses: { 200: 'Pets' } });
    expect(five.filter((c) => !c.ok).map((c) => c.name)).toEqual(['no 5xx', 'status']);
    const failed: Exchange = {
      request: exchange(200, []).request,
      error: { code: 'PETSTORE_TIMEOUT', message: 'slow' },
      durationMs: 1,
    };
    expect(expectResponse(failed, { statuses: { 200: 'Pets' } })).toEqual([
      { name: 'transport', ok: false, message: 'PETSTORE_TIMEOUT: slow' },
    ]);
  });
});
