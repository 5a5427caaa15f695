// A small Petstore client, as an app would have one.
export function petstoreClient(baseUrl, apiKey) {
  const call = async (path, init = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`${response.status} ${body.code}: ${body.message}`);
    return body;
  };
  return {
    available: (limit = 20) => call(`/pets?status=available&limit=${limit}`),
    get: (id) => call(`/pets/${id}`),
    add: (pet) => call('/pets', { method: 'POST', body: JSON.stringify(pet) }),
  };
}
