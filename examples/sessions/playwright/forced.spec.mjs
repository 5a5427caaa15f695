import { expect, test } from './petstore.fixture.mjs';

test('shows the error page while its session forces 503s', async ({ page, petstore }) => {
  const scenario = await fetch(`${petstore.control}/scenarios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'GET', path: '/v1/pets', status: 503 }),
  });
  expect(scenario.status).toBe(201);
  for (let i = 0; i < 4; i++) {
    await page.goto('/');
    await expect(page.locator('#status')).toHaveText('503');
    await page.waitForTimeout(150);
  }
});
