import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';

const screenshotPath = fileURLToPath(new URL('../../test-artifacts/app-ready.png', import.meta.url));

test('shell renders before the engine, then the engine reports its version', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg) => {
    // Errors, and warnings such as an unused or mismatched preload.
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));

  // Hold the wasm download until the shell has been checked.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/rolloutlab-*.wasm', async (route) => {
    await gate;
    await route.continue();
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Rollout Lab' })).toBeVisible();
  await expect(page.locator('#intro-heading')).toHaveText('What happens during a rollout?');
  const status = page.locator('#engine-status');
  await expect(status).toHaveAttribute('data-state', 'loading');
  await expect(page.locator('#engine-progress')).toBeVisible();

  release();
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#engine-text')).toHaveText(/^Engine \d+\.\d+\.\d+\S* · Kubernetes v1\.36\.3 controllers$/);
  await expect(page.locator('#engine-progress')).toBeHidden();

  // The bridge answers through the page's engine client (the engine runs in a
  // Worker), and a bad call is an error value, not an exception.
  const unknown = await page.evaluate(() => window.__rolloutlabEngine!.call('no-such-method'));
  expect(unknown).toEqual({
    ok: false,
    error: { message: 'unknown method "no-such-method"', line: 0, field: '', panic: false, errors: [] },
  });

  await page.screenshot({ path: screenshotPath, fullPage: true });
  expect(problems).toEqual([]);
});
