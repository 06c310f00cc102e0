// Start-up: the default scenario's step 0 is prerendered at build time
// (`go run ./wasm load`), shown before the wasm arrives, and identical to what
// the engine in its Worker answers; one wasm download per page.
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';

test('step 0 is on screen before the engine, and the prerendered answer equals the live one', async ({ page }) => {
  const wasm: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(r.url());
  });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto('/');
  // The engine is still downloading, yet step 0 of the default scenario is rendered.
  await expect(page.locator('#engine-status')).toHaveAttribute('data-state', 'loading');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  await expect(page.locator('#cluster')).toContainText('Deployment web');
  await page.screenshot({ path: fileURLToPath(new URL('../../test-artifacts/boot-prerendered.png', import.meta.url)) });
  release();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  // The wasm is content-hashed and fetched once.
  expect(wasm).toHaveLength(1);
  expect(wasm[0]).toMatch(/\/assets\/rolloutlab-[0-9a-f]{12}\.wasm$/);
  const { prerendered, live } = await page.evaluate(async () => {
    const p = window.__rolloutlabStep0!;
    const r = await window.__rolloutlabEngine!.call(p.method, p.args);
    return { prerendered: JSON.parse(p.result), live: r };
  });
  expect(live.ok).toBe(true);
  expect(live).toEqual(prerendered);
  // Stepping works from the prerendered start (the engine loaded the same state).
  await page.keyboard.press('n');
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
});

test('an engine that cannot be downloaded is reported; step 0 stays on screen', async ({ page }) => {
  const uncaught: string[] = [];
  page.on('pageerror', (e) => uncaught.push(e.message));
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('/');
  await expect(page.locator('#engine-status')).toHaveAttribute('data-state', 'error');
  await expect(page.locator('#engine-text')).toContainText('HTTP 404');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  expect(uncaught).toEqual([]);
});
