// Share links: the fragment carries scenario, seed, user actions, step and
// language; opening it restores the same simulation. Damaged and newer links
// give a clear message and the app keeps working.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pasteAndLoad, whatIf } from './editor';

const deploymentOnly = readFileSync(fileURLToPath(new URL('../../engine/scenario/testdata/live/deployment-only.yaml', import.meta.url)), 'utf8');
const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/${name}.png`, import.meta.url));

async function ready(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
}

/** What must survive the round trip: step, scenario and the objects' state. */
function snapshot(page: Page) {
  return page.evaluate(() => {
    const v = window.__rolloutlabApp!.current()!;
    return { scenario: v.scenario, seed: v.seed, step: v.step, deployments: v.deployments, replicaSets: v.replicaSets };
  });
}

test('a share link restores scenario, actions and step', async ({ page, context }) => {
  await page.goto('/');
  await ready(page);
  // Another library scenario, so the link must carry the scenario itself.
  await page.evaluate(async () => {
    const app = window.__rolloutlabApp!;
    const lib = await window.__rolloutlabEngine!.call<{ id: string; source: string }[]>('library');
    if (!lib.ok) throw new Error(lib.error.message);
    const rollback = lib.value.find((e) => e.id === 'rollback')!;
    await app.load(rollback.source, 'rollback.yaml');
  });
  const advance = (n: number) => page.evaluate((k) => window.__rolloutlabApp!.advance('event', k), n);
  await advance(4);
  await expect(page.locator('#step-label')).toHaveText(/^step 4 \//);
  // Two user actions at different steps, then a rewind.
  await page.evaluate(() => window.__rolloutlabApp!.act({ type: 'scale', target: 'deployment/web', replicas: 7 }));
  await advance(6);
  await page.evaluate(() => window.__rolloutlabApp!.act({ type: 'setImage', target: 'deployment/web', image: 'nginx:9.9' }));
  await advance(5);
  await expect(page.locator('#step-label')).toHaveText(/^step 15 \//);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#step-label')).toHaveText(/^step 14 \//);
  const before = await snapshot(page);
  expect(before.deployments![0]!.replicas).toBe(7);
  expect(before.deployments![0]!.images).toEqual(['nginx:9.9']);

  await page.locator('#share-btn').click();
  const link = page.locator('#share-link');
  await expect(link).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/#v1\.[A-Za-z0-9_-]+$/);
  const url = await link.inputValue();
  await page.screenshot({ path: shot('share-dialog') });

  const other = await context.newPage();
  await other.goto(url);
  await ready(other);
  await expect(other.locator('#banner')).toContainText('Opened a shared simulation at step 14.');
  await expect(other.locator('#step-label')).toHaveText(/^step 14 \//);
  expect(await snapshot(other)).toEqual(before);
  await other.screenshot({ path: shot('share-restored') });

  // The link pasted into the address bar of a tab that has the app open
  // (only the fragment changes): it opens there too.
  const third = await context.newPage();
  await third.goto('/');
  await ready(third);
  await expect(third.locator('#step-label')).toHaveText(/^step 0 \//);
  await third.goto(url);
  await expect(third.locator('#banner')).toContainText('Opened a shared simulation at step 14.');
  await expect(third.locator('#step-label')).toHaveText(/^step 14 \//);
  expect(await snapshot(third)).toEqual(before);
  // Worked in since, the tab comes back to the work on a reload, not to the link.
  await third.evaluate(() => window.__rolloutlabApp!.advance('event', 3));
  await expect(third.locator('#step-label')).toHaveText(/^step 17 \//);
  await third.reload();
  await expect(third.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(third.locator('#banner')).toContainText('Back where you were: step 17, with your 2 action(s).');
  await expect(third.locator('#step-label')).toHaveText(/^step 17 \//);
});

test('a damaged or newer share link is explained and the app keeps working', async ({ page }) => {
  await page.goto('/#v1.this-is-not-a-link');
  await ready(page);
  await expect(page.locator('#banner')).toBeVisible();
  await expect(page.locator('#banner-text')).toContainText('This share link is damaged and cannot be opened');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
  await page.keyboard.press('n');
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
  await page.screenshot({ path: shot('share-corrupt') });

  await page.goto('/#v7.AAAA');
  await page.reload();
  await ready(page);
  await expect(page.locator('#banner-text')).toContainText('made by a newer version of Rollout Lab (format v7)');
});

test('with the share API (as under the Worker) the dialog offers a short link, and /?s={id} restores it', async ({ page, context }) => {
  // `rolloutlab serve` has no share API: stand in for the Worker's.
  const stored = new Map<string, string>();
  const id = 'ab'.repeat(16);
  await context.route('**/api/health', (r) => r.fulfill({ json: { ok: true } }));
  await context.route('**/api/scenarios', async (r) => {
    stored.set(id, r.request().postData() ?? '');
    await r.fulfill({ status: 201, json: { id } });
  });
  await context.route('**/api/scenarios/*', (r) => r.fulfill({ status: 200, contentType: 'text/plain', body: stored.get(r.request().url().split('/').pop()!) ?? '' }));

  await page.goto('/');
  await ready(page);
  await page.evaluate(() => window.__rolloutlabApp!.advance('event', 3));
  await page.evaluate(() => window.__rolloutlabApp!.act({ type: 'scale', target: 'deployment/web', replicas: 4 }));
  await page.evaluate(() => window.__rolloutlabApp!.advance('event', 2));
  const before = await snapshot(page);
  await page.locator('#share-btn').click();
  const short = page.locator('#share-short');
  await expect(short).toHaveValue(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/s/${id}#v1\\.[A-Za-z0-9_-]+$`));
  expect(stored.get(id)).toContain('name: rolling-update-10-3-2');
  // The Worker answers /s/{id} with a redirect to /?s={id}, keeping the fragment.
  const url = (await short.inputValue()).replace(`/s/${id}`, `/?s=${id}`);
  expect(url.length).toBeLessThan((await page.locator('#share-link').inputValue()).length);

  const other = await context.newPage();
  await other.goto(url);
  await ready(other);
  await expect(other.locator('#banner')).toContainText('Opened a shared simulation at step 5.');
  expect(await snapshot(other)).toEqual(before);
});

// An SRE compares two futures of their own Deployment and sends the
// comparison to a colleague: the link (and a reload) brings back the run and
// the What if? comparison on screen, alternatives B and C, each forked as it
// was (B kept the image applied at the fork step, C did not).
test('a share link carries the What if? comparison on screen', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await ready(page);
  await pasteAndLoad(page, deploymentOnly);
  await expect(page.locator('#load-status')).toContainText('Loaded checkout');
  const room = page.locator('#whatif-room');
  const image = await whatIf(page, 'setImage', { image: 'ghcr.io/acme/checkout:2.4.0' }, 'apply');
  await expect(image.locator('.form-message')).toContainText('image updated');
  await room.locator('.whatif-keep-at').check();
  await whatIf(page, 'setRollingUpdate', { maxSurge: '100%' }, 'fork');
  const compare = room.locator('.whatif-compare');
  await expect(compare.locator('table.whatif-summary th[scope="col"]')).toHaveText(['A', 'B']);
  await compare.getByRole('button', { name: 'Add another alternative' }).click();
  await room.locator('.whatif-keep-at').uncheck(); // C: the strategy change instead of the image
  await whatIf(page, 'setRollingUpdate', { maxSurge: '0', maxUnavailable: '100%' }, 'fork');
  await expect(compare.locator('table.whatif-summary th[scope="col"]')).toHaveText(['A', 'B', 'C']);
  const table = async (p: Page) => p.locator('#whatif-room table.whatif-summary').innerText();
  const legend = async (p: Page) => p.locator('#whatif-room .whatif-legend .run-key').allInnerTexts();
  const shown = await table(page);
  const keys = await legend(page);
  expect(keys[1]).toContain('maxSurge=100% · setRollingUpdate payments/deployment/checkout (+ set image deployment/checkout');
  expect(keys[2]).not.toContain('set image');

  await page.locator('#share-btn').click();
  await expect(page.locator('#share-link')).toHaveValue(/#v1\./);
  await expect(page.locator('#share-dialog, dialog').filter({ has: page.locator('#share-link') })).toContainText('and the What if? comparison');
  const url = await page.locator('#share-link').inputValue();
  const other = await context.newPage();
  await other.setViewportSize({ width: 1280, height: 720 });
  await other.goto(url);
  await ready(other);
  await expect(other.locator('#banner')).toContainText('Opened a shared simulation at step 0, with its What if? comparison.');
  await expect(other.locator('#whatif-room table.whatif-summary th[scope="col"]')).toHaveText(['A', 'B', 'C']);
  expect(await table(other)).toBe(shown);
  expect(await legend(other)).toEqual(keys);
  await other.locator('#whatif-room .whatif-compare').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await other.screenshot({ path: shot('share-restored-comparison') });
  // A reload of the tab keeps it too.
  await other.locator('#sync-btn').click();
  await other.reload();
  await ready(other);
  await expect(other.locator('#whatif-room table.whatif-summary th[scope="col"]')).toHaveText(['A', 'B', 'C']);
  expect(await table(other)).toBe(shown);
});
