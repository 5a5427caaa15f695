test('shows an error for a pet that does not exist', async () => {
  const res = await fetch(`${process.env.PETSTORE_URL}/pets/999999`, { headers: { authorization: 'Bearer test-key' } });
  expect(res.status).toBe(404);
});
