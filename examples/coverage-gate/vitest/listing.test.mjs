import { expect, inject, it } from 'vitest';

it('lists pets', async () => {
  const res = await fetch(`${inject('petstoreUrl')}/pets?limit=5`, { headers: { authorization: 'Bearer test-key' } });
  expect(await res.json()).toHaveLength(5);
});
