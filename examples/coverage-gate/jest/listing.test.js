test('lists pets', async () => {
  const res = await fetch(`${process.env.PETSTORE_URL}/pets?limit=5`, {
    headers: { authorization: 'Bearer test-key' },
  });
  expect(await res.json()).toHaveLength(5);
});
