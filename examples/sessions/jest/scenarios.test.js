const { usePetstoreSession } = require('./petstore-session.js');

const petstore = usePetstoreSession();
const auth = { authorization: 'Bearer test-key' };

for (let i = 1; i <= 3; i++)
  test(`sees its own forced 503, and only while forced (${i})`, async () => {
    await fetch(`${petstore.control}/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/pets', status: 503, times: 1 }),
    });
    expect((await fetch(`${petstore.url}/pets`, { headers: auth })).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const listed = await fetch(`${petstore.url}/pets?limit=100`, { headers: auth });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toHaveLength(10);
  });
