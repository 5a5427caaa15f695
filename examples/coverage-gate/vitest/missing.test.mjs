import { expect, inject, it } from 'vitest';

it('shows an error for a pet that does not exist', async () => {
  const res = await fetch(`${inject('petstoreUrl')}/pets/999999`, { headers: { authorization: 'Bearer test-key' } });
  expect(res.status).toBe(404);
});
