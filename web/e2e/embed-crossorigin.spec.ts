// /embed.js on another site: a Worker cannot be started from a cross-origin
// script, so each player becomes an iframe of /embed. The "other site" is
// localhost while the app is 127.0.0.1 (both loopback); Chromium's
// local-network access checks, which would otherwise stop a page from
// reaching a loopback address, are switched off for this file only.
import { expect, test } from '@playwright/test';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
    ],
  },
});

test('on another site, /embed.js falls back to iframes of /embed', async ({ page, baseURL }) => {
  // A host page on another origin (localhost instead of 127.0.0.1: both
  // loopback, so Chromium's private-network rules stay out of the way),
  // answered by the test, that loads our script.
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}other-site.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Other site</title><p>Intro</p>
        <rollout-lab id="p" scenario="rolling-update-10-3-2" step="3" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.goto(`${other}other-site.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(frame.locator('.pl-label')).toContainText('step 3 /');
  expect(await page.evaluate(() => document.activeElement === document.body && window.scrollY === 0)).toBe(true);
});

test('on another site, an iframe player follows the page\'s language and the size its CSS gives it', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}zh-site.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="zh-CN"><title>Other site</title><style>#p { display: block; height: 360px }</style>
        <rollout-lab id="p" scenario="rolling-update-10-3-2" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script></html>`,
    }),
  );
  await page.goto(`${other}zh-site.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  expect(await page.locator('#p iframe').getAttribute('src')).toContain('lang=zh-CN');
  await expect(frame.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const box = (await page.locator('#p').boundingBox())!;
  expect(Math.round(box.height)).toBe(360);
});

test('on another site, a scenario file of that site is fetched by the page for the iframe', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}docs/page.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title>
        <rollout-lab id="p" scenario="files/mine.yaml" panels="cluster"></rollout-lab>
        <rollout-lab id="q" scenario="files/missing.yaml" panels="cluster"></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.route(`${other}docs/files/mine.yaml`, (r) =>
    r.fulfill({
      contentType: 'text/yaml',
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: mine}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: mine}}\n  template:\n    metadata: {labels: {app: mine}}\n    spec: {containers: [{name: c, image: nginx}]}\n',
    }),
  );
  await page.route(`${other}docs/files/missing.yaml`, (r) => r.fulfill({ status: 404, body: 'no' }));
  await page.goto(`${other}docs/page.html`);
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('#player .player')).toHaveAttribute('data-ready', 'true');
  await expect(frame.locator('.pl-title')).toHaveText('mine');
  await expect(page.frameLocator('#q iframe').locator('.pl-status')).toContainText('files/missing.yaml: HTTP 404');
});

test('on another site, an inline-YAML player changed after mounting keeps its YAML', async ({ page, baseURL }) => {
  const other = baseURL!.replace('127.0.0.1', 'localhost');
  await page.route(`${other}inline.html`, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Docs</title>
        <rollout-lab id="p" panels="cluster"><script type="text/yaml">
          apiVersion: apps/v1
          kind: Deployment
          metadata: {name: inline-web}
          spec:
            replicas: 2
            selector: {matchLabels: {app: w}}
            template:
              metadata: {labels: {app: w}}
              spec: {containers: [{name: c, image: nginx}]}
        </script></rollout-lab>
        <script type="module" src="${baseURL}embed.js"></script>`,
    }),
  );
  await page.goto(`${other}inline.html`);
  await expect(page.frameLocator('#p iframe').locator('.pl-title')).toHaveText('inline-web');
  // The scenario's text travels in the fragment, not the query.
  const src = (await page.locator('#p iframe').getAttribute('src')) ?? '';
  expect(src.split('#')[0]).not.toContain('source=');
  await page.evaluate(() => document.getElementById('p')!.setAttribute('panels', 'cluster,math'));
  const frame = page.frameLocator('#p iframe');
  await expect(frame.locator('.pl-panel')).toHaveCount(2);
  await expect(frame.locator('.pl-title')).toHaveText('inline-web');
});
