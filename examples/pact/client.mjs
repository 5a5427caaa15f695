// A small Petstore client, as an app would have one.
export function petstoreClient(baseUrl, apiKey) {
  const call = async (path, init = {}) => {
    const auth = apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...auth, ...init.headers } });
    const body = await response.json();
    if (!response.ok) throw new Error(`${response.status} ${body.code}: ${body.message}`);
    return body;
  };
  return {
    list: (limit) => call(limit === undefined ? '/pets' : `/pets?limit=${limit}`),
    available: () => call('/pets?status=available'),
    get: (id) => call(`/pets/${id}`),
    add: (pet) =>
      call('/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pet) }),
  };
}
