const { usePetstoreSession } = require('./petstore-session.js');

const petstore = usePetstoreSession();
const auth = { authorization: 'Bearer test-key', 'content-type': 'application/json' };

for (let i = 1; i <= 3; i++)
  test(`adds a pet after the ten seeded (${i})`, async () => {
    const made = await fetch(`${petstore.url}/pets`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: `j${i}`, categoryId: 1 }),
    });
    expect(made.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const pets = await (await fetch(`${petstore.url}/pets?limit=100`, { headers: auth })).json();
    expect(pets.map((p) => p.name).slice(10)).toEqual([`j${i}`]);
  });
