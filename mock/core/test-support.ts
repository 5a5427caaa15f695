/**
 * Helpers for the mock's socket-free tests: a mock and a `call` that sends
 * one request through all its layers.
 */
import { expect } from 'vitest';
import { getValidator } from '../../spec/index.ts';
import type { MockOptions } from './mock.ts';
import { createMock } from './mock.ts';
import type { ApiRequest, ApiResponse } from './responses.ts';
import { seedPets } from './seed.ts';

/** The key the test mocks accept. */
export const KEY = 'test-key-0123456789';
/** An Authorization header with {@link KEY}. */
export const AUTH = { authorization: `Bearer ${KEY}` };
/** {@link AUTH} and a JSON Content-Type. */
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

/** A JSON Content-Type, as the control endpoints require for a body. */
export const CONTROL_JSON = { 'content-type': 'application/json' };

/** A mock over three seeded pets (unless told otherwise), and a way to call it. */
export function setupMock(options: MockOptions = {}) {
  // Seeded here, with faker, so the mock holds its pets from the start (createMock would load faker in the background).
  const seeding = { seed: options.seed ?? 1, count: options.count ?? 3 };
  const mock = createMock({ apiKeys: [KEY], ...options, seed: seeding.seed, pets: options.pets ?? seedPets(seeding) });
  // A fresh headers object per call: the journal keeps the one it is given.
  const call = async (method: string, url: string, headers: ApiRequest['headers'] = AUTH, body?: string) =>
    mock.fetch({ method, url, headers: { ...headers }, ...(body === undefined ? {} : { body }) });
  return { mock, call };
}

/** The parsed body. */
export function json(response: ApiResponse): any {
  return JSON.parse(response.body);
}

/** Asserts the documented Error shape, with `status` equal to the HTTP status, and returns its message. */
export function expectError(response: ApiResponse, status: number, code: string): string {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  const body = json(response);
  expect(getValidator('Error')(body)).toBe(true);
  expect(body).toMatchObject({ status, code });
  return body.message;
}
