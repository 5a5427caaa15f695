import { expect, test } from './petstore.fixture.mjs';

test('lists the pets every time, whatever the other worker forces', async ({ page }) => {
  for (let i = 0; i < 4; i++) {
    await page.goto('/');
    await expect(page.locator('#status')).toHaveText('200');
    await expect(page.locator('#pets li')).toHaveCount(5);
    await page.waitForTimeout(150);
  }
});
