// What the tests send: the app's own calls, against whatever base URL the fixture hands out.
export async function api(petstore, method, path, body) {
  const response = await fetch(`${petstore.url}${path}`, {
    method,
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** Sends one control request (reset, scenarios, pets) to the fixture's control endpoints. */
export async function control(petstore, method, path, body) {
  const response = await fetch(`${petstore.control}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

/** A short wait between steps, as a real test's app would take: the files overlap in time. */
export const pause = () => new Promise((resolve) => setTimeout(resolve, 40));
