// The what-if room against the real engine: fork at a step with a different
// maxSurge and see both runs on one chart with the summary table; an action
// error shown next to the form that caused it; the editor's text kept across
// a reload. Screenshots go to test-artifacts/ (1280x720 and 800x500).
import { expect, type Page, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { pasteAndLoad } from './editor';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/whatif-${name}.png`, import.meta.url));

async function openLibrary(page: Page, id: string): Promise<void> {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#scenario-picker')).toBeEnabled();
  await page.locator('#scenario-picker').selectOption(id);
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \//);
}

async function stepTo(page: Page, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await page.locator('#step-btn').click();
    await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step ${i + 1} /`));
  }
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 800, height: 500 },
]) {
  test(`fork at a step with maxSurge 100%: both runs on the chart and the summary table (${size.width}x${size.height})`, async ({ page }) => {
    await page.setViewportSize(size);
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    await openLibrary(page, 'compare-max-surge');
    await stepTo(page, 3);

    const room = page.locator('#whatif-room');
    await room.locator('.whatif-form-pick').selectOption('setRollingUpdate');
    const form = room.locator('form[data-form="setRollingUpdate"]');
    await form.locator('input[name="maxSurge"]').fill('100%');
    await form.locator('button[data-mode="fork"]').click();

    const compare = room.locator('.whatif-compare');
    await expect(compare).toBeVisible();
    await expect(compare.locator('h3')).toHaveText('Forked at step 3');
    // Both runs on one chart: A solid, B dashed, every series in both.
    await expect(compare.locator('svg path.run-0')).toHaveCount(3);
    await expect(compare.locator('svg path.run-1[stroke-dasharray="6 4"]')).toHaveCount(3);
    // The summary: maxSurge 1 (A) against 100% (B), measured from step 3 (+0s): creation 3s, then 4 waves
    // of 3s for A and one for B; the RS total peaks at replicas + maxSurge, 21 and 40 (B's 40 within the sync
    // that creates the new ReplicaSet before it scales the old one down), 40 pods at once in B.
    const row = (label: string) => compare.locator('table.whatif-summary tr', { has: page.locator(`th:text-is("${label}")`) });
    await expect(row('Time to complete (from the fork)').locator('td')).toHaveText(['15s', '6s']);
    await expect(row('Peak pods (surge over desired)').locator('td')).toHaveText(['21 (+1)', '40 (+20)']);
    await expect(row('Peak ReplicaSet total (bounded by maxSurge)').locator('td')).toHaveText(['21', '40']);
    await expect(row('Minimum available').locator('td')).toHaveText(['15', '15']);
    await expect(compare.locator('.divergence').first()).toContainText('The runs part before step 4 (+0.000s), in the actions run there: A did nothing, B did "apiserver api: kubectl update deployments default/web');
    await expect(compare.locator('.event-diff')).toContainText('Scaled up replica set web-7f6f88cb57 from 0 to 20');
    // B is also drawn (thin, faint, finely dotted) over the player's replica
    // chart, on its axes, and the chart's legend names it: without that key
    // B's available line read as A's (both dotted, both the text colour).
    await expect(page.locator('#chart path.overlay')).toHaveCount(3);
    await expect(page.locator('#chart path.overlay[stroke-dasharray="1 3"]')).toHaveCount(3);
    await expect(page.locator('#chart path.line.avail:not(.overlay)')).not.toHaveAttribute('stroke-dasharray', '1 3');
    const overlayKey = page.locator('#chart-legend .overlay-key');
    await expect(overlayKey).toHaveText('thin dotted, in each object\'s colour: run B: maxSurge=100% · setRollingUpdate deployment/web (What if?)');
    await expect(overlayKey.locator('line.overlay')).toHaveAttribute('stroke-dasharray', '1 3');
    await page.locator('#panel-chart').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await page.locator('#panel-chart').screenshot({ path: shot(`overlay-${size.width}x${size.height}`) });
    // The page's own run did not move.
    await expect(page.locator('#step-label')).toHaveText(/^step 3 \//);
    // The room grows with the comparison instead of scrolling inside itself.
    const act = page.locator('#panel-act');
    expect(await act.evaluate((el) => el.scrollHeight - el.clientHeight)).toBe(0);
    await compare.locator('.whatif-chart').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: shot(`fork-${size.width}x${size.height}`) });
    await page.screenshot({ path: shot(`fork-${size.width}x${size.height}-full`), fullPage: true });

    // A third run: maxSurge 25%, dotted, in its own column.
    await compare.getByRole('button', { name: 'Add another alternative' }).click();
    await form.locator('input[name="maxSurge"]').fill('25%');
    await form.locator('button[data-mode="fork"]').click();
    await expect(compare.locator('table.whatif-summary thead th')).toHaveText(['', 'A', 'B', 'C']);
    await expect(row('Time to complete (from the fork)').locator('td')).toHaveText(['15s', '6s', '9s']);
    await expect(compare.locator('svg path.run-2[stroke-dasharray="2 3"]')).toHaveCount(3);
    // The player's chart shows the newest alternative.
    await expect(overlayKey).toContainText('run C: maxSurge=25%');
    await compare.getByRole('button', { name: 'Close comparison' }).click();
    await expect(compare).toBeHidden();
    await expect(page.locator('#chart path.overlay')).toHaveCount(0);
    await expect(overlayKey).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}

test('an action error is shown next to its form and cleared when the form changes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openLibrary(page, 'compare-max-surge');
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-what')).toContainText('idle'); // the run is settled before the form is used
  const room = page.locator('#whatif-room');
  await room.locator('.whatif-form-pick').selectOption('setRollingUpdate');
  const form = room.locator('form[data-form="setRollingUpdate"]');
  // Both 0: the API server refuses it, and says why, inside this form.
  await form.locator('input[name="maxSurge"]').fill('0');
  await form.locator('input[name="maxUnavailable"]').fill('0');
  await form.locator('button[data-mode="apply"]').click();
  const err = form.locator('.form-error');
  await expect(err).toContainText('may not be 0 when `maxSurge` is 0');
  await expect(err).toBeInViewport();
  await expect(page.locator('#banner')).toBeHidden();
  await page.screenshot({ path: shot('action-error-1280x720') });
  // Editing the form clears the stale message; a good value then succeeds.
  await form.locator('input[name="maxUnavailable"]').fill('1');
  await expect(err).toBeEmpty();
  await form.locator('button[data-mode="apply"]').click();
  await expect(form.locator('.form-message')).toContainText('deployment.apps/web patched');
  await expect(err).toBeEmpty();
  // A form-level check (no value given) also lands in the form.
  await form.locator('input[name="maxSurge"]').fill('');
  await form.locator('input[name="maxUnavailable"]').fill('');
  await form.locator('button[data-mode="fork"]').click();
  await expect(err).toHaveText('Give maxSurge, maxUnavailable or both (a number or a percentage).');
  // Set image: the container picker lists the Deployment's containers.
  await room.locator('.whatif-form-pick').selectOption('setImage');
  const img = room.locator('form[data-form="setImage"]');
  await expect(img.locator('select[name="container"] option')).toHaveText(['web · nginx:1.26']); // the image the timeline set, as it is now
});

test("the editor's text survives a reload and a failed load", async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: mine\nspec:\n  replicas: banana\n');
  await expect(page.locator('#load-status')).toContainText('previous simulation is kept');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#editor-host .cm-content')).toContainText('replicas: banana');
  await expect(page.locator('#load-status')).toContainText('Your edited YAML from last time is in the editor.');
  // Choosing a library scenario over it asks first; declining keeps it.
  page.once('dialog', (d) => void d.dismiss());
  await page.locator('#scenario-picker').selectOption('adoption');
  await expect(page.locator('#editor-host .cm-content')).toContainText('replicas: banana');
  page.once('dialog', (d) => void d.accept());
  await page.locator('#scenario-picker').selectOption('adoption');
  await expect(page.locator('#editor-host .cm-content')).toContainText('kind: Scenario');
});

test('after a reload, a draft that does not load leaves the scenario that last loaded running', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  const good = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: mine\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: mine}}\n  template:\n    metadata: {labels: {app: mine}}\n    spec: {containers: [{name: c, image: nginx}]}\n';
  await pasteAndLoad(page, good);
  await expect(page.locator('#load-status')).toContainText('Loaded mine');
  await pasteAndLoad(page, good.replace('replicas: 2', 'replicas: banana'));
  await expect(page.locator('#load-status')).toContainText('previous simulation is kept');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#editor-host .cm-content')).toContainText('replicas: banana');
  await expect(page.locator('#load-status')).toContainText('in the editor, not loaded');
  // The run is mine's, the last that loaded, not the built-in one.
  await expect(page.locator('#scenario-name')).toHaveText('— mine');
  await expect(page.locator('.deploy[data-name="mine"]')).toBeVisible();
  // In a new tab (no run of its own to come back to) the draft is tried
  // again, and the last one that loaded runs.
  const other = await page.context().newPage();
  await other.goto('/');
  await expect(other.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(other.locator('#load-errors li').first()).toContainText('spec.replicas');
  await expect(other.locator('#scenario-name')).toHaveText('— mine');
});

test('a reload comes back to the run on screen: its scenario, the actions made and the step; an unloaded draft waits in the editor', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  const good = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: mine\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: mine}}\n  template:\n    metadata: {labels: {app: mine}}\n    spec: {containers: [{name: c, image: nginx}]}\n';
  await pasteAndLoad(page, good);
  await expect(page.locator('#load-status')).toContainText('Loaded mine');
  const room = page.locator('#whatif-room');
  await room.locator('.whatif-form-pick').selectOption('setImage');
  const img = room.locator('form[data-form="setImage"]');
  await img.locator('input[name="image"]').fill('nginx:1.27');
  await img.locator('button[data-mode="apply"]').click();
  await expect(img.locator('.form-message')).toContainText('image updated');
  await stepTo(page, 6);
  // A draft typed but never loaded.
  await page.locator('#edit-btn').click();
  await page.locator('#editor-host .cm-content').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\n# a comment I did not load\n');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#banner')).toContainText('Back where you were: step 6, with your 1 action(s).');
  await expect(page.locator('#step-label')).toHaveText(/^step 6 \//);
  await expect(page.locator('#scenario-name')).toHaveText('— mine');
  await expect(page.locator('.deploy[data-name="mine"] .deploy-meta')).toContainText('nginx:1.27');
  await expect(page.locator('#editor-host .cm-content')).toContainText('a comment I did not load');
  await expect(page.locator('#load-status')).toContainText('in the editor, not loaded');
});

test('export: the scenario with my action in its timeline, the timeline, the chart as SVG and PNG', async ({ page }) => {
  await openLibrary(page, 'compare-max-surge');
  await stepTo(page, 2);
  const room = page.locator('#whatif-room');
  await room.locator('.whatif-form-pick').selectOption('scale');
  const form = room.locator('form[data-form="scale"]');
  await form.locator('input[name="replicas"]').fill('5');
  await form.locator('button[data-mode="apply"]').click();
  await expect(form.locator('.form-message')).toContainText('scaled');
  const save = async (label: string) => {
    const [d] = await Promise.all([page.waitForEvent('download'), room.getByRole('button', { name: label }).click()]);
    const path = await d.path();
    const { readFileSync } = await import('node:fs');
    return { name: d.suggestedFilename(), body: readFileSync(path) };
  };
  const yaml = await save('Scenario + my actions (YAML)');
  expect(yaml.name).toBe('compare-max-surge.yaml');
  expect(yaml.body.toString()).toContain('    - {"action":"scale","replicas":5,"target":"deployment/web","when":{"step":2}}\n    - when: {rolloutComplete: deployment/web}');
  const timeline = await save('Timeline (text)');
  expect(timeline.body.toString()).toMatch(/^# rolloutlab timeline: compare-max-surge, 2 steps\n\+0\.000s step 1 /);
  const svg = await save('Chart (SVG)');
  expect(svg.name).toBe('compare-max-surge-chart.svg');
  expect(svg.body.toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const png = await save('Chart (PNG)');
  expect(png.body.subarray(1, 4).toString()).toBe('PNG');
  const trace = await save('Trace (JSON)');
  expect(JSON.parse(trace.body.toString()).records.length).toBeGreaterThan(10);
});

test('a fork at an earlier step keeps the actions made after it, or leaves them out when asked, and says which', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openLibrary(page, 'compare-max-surge');
  await stepTo(page, 2);
  const room = page.locator('#whatif-room');
  // The user scales to 4 at step 2, then goes back to step 1 to ask "what if maxSurge were 100%?".
  await room.locator('.whatif-form-pick').selectOption('scale');
  const scale = room.locator('form[data-form="scale"]');
  await scale.locator('input[name="replicas"]').fill('4');
  await scale.locator('button[data-mode="apply"]').click();
  await expect(scale.locator('.form-message')).toContainText('scaled');
  await page.locator('#back-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
  await room.locator('.whatif-form-pick').selectOption('setRollingUpdate');
  const form = room.locator('form[data-form="setRollingUpdate"]');
  await form.locator('input[name="maxSurge"]').fill('100%');
  await expect(room.locator('.whatif-keep-later')).toBeChecked();
  await form.locator('button[data-mode="fork"]').click();
  await expect(form.locator('.form-message')).toContainText('B also runs the 1 action(s) you made after step 1.');
  const final = room.locator('table.whatif-summary tr', { has: page.locator('th:text-is("Final state")') }).locator('td');
  await expect(final).toHaveText([/^web \d+\/4 /, /^web \d+\/4 /]);
  // Leaving them out: B is the maxSurge change alone, at 20 replicas.
  await room.locator('.whatif-compare').getByRole('button', { name: 'Close comparison' }).click();
  await room.locator('.whatif-keep-later').uncheck();
  await form.locator('button[data-mode="fork"]').click();
  await expect(form.locator('.form-message')).toContainText('B leaves out the 1 action(s) you made after step 1.');
  await expect(final).toHaveText([/^web \d+\/4 /, /^web \d+\/20 /]);
});
