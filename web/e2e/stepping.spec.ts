// The stepping UI against the real engine: the default scenario, the panels'
// numbers at known steps of the rolling update 10/3/2 (seed 1), rewind, an
// invalid scenario, and a user action. Screenshots go to test-artifacts/.
import { expect, type Page, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { deletionRankings, pasteAndLoad, type RankedPod, rankingTable, scrubTo, webDeployment, whatIf } from './editor';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/ui-${name}.png`, import.meta.url));

async function currentStep(page: Page): Promise<number> {
  const label = (await page.locator('#step-label').textContent()) ?? '';
  const m = label.match(/^step (\d+) \//);
  if (!m) throw new Error(`unexpected step label ${label}`);
  return Number(m[1]);
}

/**
 * Presses key and waits until the step it starts has been rendered, so that
 * key presses never pile up while the engine is busy (a slow machine would
 * otherwise skip past the step a test wants to look at).
 */
async function pressAndWait(page: Page, key: string): Promise<number> {
  const before = await currentStep(page);
  await page.keyboard.press(key);
  await expect.poll(() => currentStep(page), { timeout: 30_000 }).not.toBe(before);
  return currentStep(page);
}

/** Clicks the sync button and waits for the step it takes to be rendered. */
async function syncAndWait(page: Page): Promise<number> {
  const before = await currentStep(page);
  await page.locator('#sync-btn').click();
  await expect.poll(() => currentStep(page), { timeout: 30_000 }).not.toBe(before);
  return currentStep(page);
}

function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  return problems;
}

test('rolling update 10/3/2: panels show the controllers\' numbers, rewind, bad YAML, scale', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#scenario-picker')).toHaveValue('rolling-update-10-3-2');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  await expect(page.locator('#scenario-desc')).toContainText('What to watch');
  await expect(page.locator('.deploy[data-name="web"] .deploy-title')).toHaveText('Deployment web');
  await page.screenshot({ path: shot('1-loaded') });

  // One event, then controller syncs, until the rollout to nginx:1.26 has completed.
  await page.keyboard.press('n');
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \/ 1 /);
  const checked = new Set<number>();
  for (let i = 0; i < 200; i++) {
    const label0 = (await page.locator('#step-what').textContent()) ?? '';
    if (label0.includes('idle') && checked.has(113)) break;
    const step = await pressAndWait(page, 's');
    if (step === 95) {
      // The deployment controller's first sync after the image change.
      const newRS = page.locator('#math .math-block[data-type="NewRSMath"] .math-lines li');
      await expect(newRS).toHaveText(['maxTotalPods = replicas 10 + maxSurge 3 = 13', 'Σ spec.replicas of all ReplicaSets 10', 'scale up = min(13 − 10, 10 − 0) = 3', 'new RS = 0 + 3 = 3']);
      const old = page.locator('#math .math-block[data-type="OldScaleDownMath"]');
      await expect(old.locator('li').filter({ hasText: 'maxScaledDown' })).toHaveText('maxScaledDown = Σ spec.replicas 13 − minAvailable 8 − new RS unavailable 3 = 2');
      await expect(old.locator('li').filter({ hasText: /^minAvailable/ })).toHaveText('minAvailable = replicas 10 − maxUnavailable 2 = 8');
      await expect(old.locator('table').last().locator('tbody tr td')).toHaveText([/^web-/, '10', '10', '−2', '8']);
      await expect(page.locator('#math .math-block[data-type="FencepostMath"] .math-notes')).toContainText('maxSurge rounds up, maxUnavailable rounds down');
      await expect(page.locator('#queues [data-controller="deployment-controller"] .q-sync')).toHaveText('syncing now: default/web because deployment default/web updated');
      await page.screenshot({ path: shot('2-step95-math') });
      checked.add(step);
    }
    if (step === 99) {
      // The ReplicaSet controller creates the 3 pods and now expects them.
      await expect(page.locator('#math .math-block[data-type="ManageDecision"] li')).toHaveText(['diff = active 0 − desired 3 = -3', '→ create 3 (slow start batches 1 2)']);
      const row = page.locator('#expectations tr[data-key$="/' + (await newRSName(page)) + '"]');
      await expect(row.locator('.n-add')).toHaveText('3');
      await expect(row.locator('.satisfied')).toHaveText('waiting');
      await expect(page.locator('.rs .rs-counts[data-desired="3"]')).toHaveCount(1);
      await page.screenshot({ path: shot('3-step99-expectations') });
      checked.add(step);
    }
    if (step === 113) {
      // The old ReplicaSet deletes 2 pods: two pending delete keys.
      await expect(page.locator('#expectations tr.wait .n-del')).toHaveText('2');
      const ranking = page.locator('#math .math-block[data-type="DeletionRanking"]');
      await expect(ranking.locator('li').first()).toHaveText(/^default\/web-\w+: delete 2 of 10$/);
      await expect(ranking.locator('tbody tr').filter({ has: page.locator('td:nth-child(2)', { hasText: 'yes' }) })).toHaveCount(2);
      checked.add(step);
    }
    const label = (await page.locator('#step-what').textContent()) ?? '';
    if (label.includes('idle') && step > 113) break;
  }
  expect([...checked].sort((a, b) => a - b)).toEqual([95, 99, 113]);
  const deploy = page.locator('.deploy[data-name="web"] .deploy-meta');
  await expect(deploy).toContainText('revision 2');
  await expect(deploy).toContainText('status: total 10, updated 10, ready 10, available 10');
  await page.locator('#kubectl-cmd').selectOption('rollout status deployment/web');
  await expect(page.locator('#kubectl-out')).toContainText('successfully rolled out');
  await page.screenshot({ path: shot('4-complete'), fullPage: true });

  // Rewind with the scrubber, then step back with ←: step 95's math is shown again.
  const endStep = await currentStep(page);
  await page.locator('#scrubber').fill('96');
  await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step 96 / ${endStep} `));
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step 95 / ${endStep} `));
  await expect(page.locator('#math .math-block[data-type="NewRSMath"] li').nth(2)).toHaveText('scale up = min(13 − 10, 10 − 0) = 3');
  await expect(page.locator('.rs .rs-counts[data-desired="8"]')).toHaveCount(1);
  await page.screenshot({ path: shot('5-rewound') });

  // Invalid YAML: errors at their line, and the simulation stays.
  await pasteAndLoad(page, 'apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nspec:\n  seed: banana\n');
  await expect(page.locator('#load-errors li').first()).toHaveAttribute('data-line', '4');
  await expect(page.locator('#load-errors li').first()).toContainText('line 4: spec.seed');
  await expect(page.locator('#editor-host .cm-lint-marker-error')).toHaveCount(1);
  await expect(page.locator('#load-status')).toContainText('previous simulation is kept');
  await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step 95 / ${endStep} `));
  await page.screenshot({ path: shot('6-invalid-yaml') });

  // A user action: scale to 12, then settle; the deployment and its new RS follow.
  await page.locator('.whatif-form-pick').selectOption('scale');
  const scaleForm = page.locator('form[data-form="scale"]');
  await scaleForm.locator('input[name="replicas"]').fill('12');
  await scaleForm.locator('button[data-mode="apply"]').click();
  await expect(scaleForm.locator('.form-message')).toContainText('scaled');
  await expect(page.locator('#step-label')).toHaveText(/^step 95 \/ 95 /); // the old future is discarded
  await page.locator('#settle-btn').click();
  await expect(deploy).toContainText('status: total 12, updated 12, ready 12, available 12');
  await expect(page.locator('.deploy[data-name="web"] .deploy-title')).toHaveText('Deployment web');
  await page.screenshot({ path: shot('7-scaled'), fullPage: true });

  expect(problems).toEqual([]);
});

async function newRSName(page: Page): Promise<string> {
  // the newest ReplicaSet is drawn first under its Deployment
  const name = await page.locator('.deploy[data-name="web"] .rs').first().getAttribute('data-name');
  return name ?? '';
}

test('keyboard: help overlay, theme toggle and large text', async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await page.setViewportSize({ width: 800, height: 500 });
  await page.keyboard.press('?');
  await expect(page.locator('#help')).toBeVisible();
  await expect(page.locator('#help-keys')).toContainText('step one event');
  await expect(page.locator('#help-keys')).toContainText('Ctrl+Enter');
  // It opens at its top (the focus on Close scrolled it to the bottom,
  // past the first keys).
  await expect(page.locator('#help-heading')).toBeFocused();
  await expect(page.locator('#help-heading')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#help-keys dt').first()).toBeInViewport();
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.locator('#help')).toBeHidden();
  await page.locator('#theme-btn').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.locator('#theme-btn').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.locator('#big-btn').click();
  await expect(page.locator('html')).toHaveClass(/big/);
  await page.keyboard.press('s');
  await expect(page.locator('#step-label')).not.toHaveText(/^step 0 /);
  await page.screenshot({ path: shot('8-dark-big'), fullPage: true });
  expect(problems).toEqual([]);
});

test('library: adoption is highlighted, proportional scaling shows its table', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = watchConsole(page);
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');

  await page.locator('#scenario-picker').selectOption('adoption');
  await expect(page.locator('#scenario-desc')).toContainText('adopts "test"');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  let adopted = 0;
  for (let i = 0; i < 60 && adopted === 0; i++) {
    await syncAndWait(page);
    adopted = await page.locator('#cluster .pod.adopted').count();
  }
  expect(adopted).toBe(1);
  await expect(page.locator('#cluster .pod.adopted')).toHaveAttribute('title', /^test: /);
  await page.screenshot({ path: shot('9-adopted') });

  await page.locator('#scenario-picker').selectOption('proportional-scaling');
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  const scale = page.locator('#math .math-block[data-type="ScaleMath"]');
  // Click rather than press 's': after selectOption the focus is on the picker.
  for (let i = 0; i < 150 && (await scale.count()) === 0; i++) await syncAndWait(page);
  await expect(scale.locator('li').filter({ hasText: 'allowed' })).toHaveText('allowed = replicas 15 + maxSurge 3 = 18');
  await expect(scale.locator('li').filter({ hasText: 'toAdd' })).toHaveText('toAdd = 18 − 13 = +5');
  const rows = scale.locator('table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator('td')).toHaveText([/^app-/, '8', '13 (annotation)', 'round(8×18/13 = 11.077) − 8 = +3', 'min(+3, +5) = +3', '11']);
  await expect(rows.nth(1).locator('td')).toHaveText([/^app-/, '5', '13 (annotation)', 'round(5×18/13 = 6.923) − 5 = +2', 'min(+2, +2) = +2', '7']);
  await page.screenshot({ path: shot('10-proportional') });
  expect(problems).toEqual([]);
});

test('math after a seek: the latest decision however far back, not an older one or none', async ({ page }) => {
  // 100 replicas: their pods start in a stretch of about 300 steps with no
  // decision, longer than the 64 steps the panel once read back from the
  // step shown (it then said "No controller decision yet" there).
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(
    page,
    `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 100
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.25}]}
`,
  );
  await expect(page.locator('#step-label')).toHaveText(/^step 0 \/ 0/);
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step (\d{3,}) \/ \1/, { timeout: 60_000 });
  // The steps with math, from the engine's records (what the panel must name).
  const mathSteps = await page.evaluate(async () => {
    const app = window.__rolloutlabApp!;
    const math = ['FencepostMath', 'ScalingEventMath', 'ScaleMath', 'NewRSMath', 'ReconcileNewMath', 'OldScaleDownMath', 'ExpectationsCheck', 'ClaimDecision', 'ManageDecision', 'DeletionRanking', 'RolloutStatusDecision'];
    const r = await app.engineCall<{ records: { step: number; type: string }[] }>('records', { kinds: ['decision'], limit: 10000 });
    return [...new Set(r!.records.filter((x) => math.includes(x.type)).map((x) => x.step))].sort((a, b) => a - b);
  });
  // The longest stretch without math, and a step near its end.
  let gap = [0, 0];
  for (let i = 1; i < mathSteps.length; i++) if (mathSteps[i]! - mathSteps[i - 1]! > gap[1]! - gap[0]!) gap = [mathSteps[i - 1]!, mathSteps[i]!];
  const target = gap[1]! - 1;
  expect(target - gap[0]!).toBeGreaterThan(100);
  for (const [step, latest] of [
    [target, gap[0]!],
    [Math.floor((gap[0]! + target) / 2), gap[0]!],
    [gap[1]!, gap[1]!],
  ] as const) {
    await scrubTo(page, step);
    if (step === latest) await expect(page.locator('#math')).not.toContainText('No decision in step');
    else await expect(page.locator('#math')).toContainText(`No decision in step ${step}; showing step ${latest}.`);
    await expect(page.locator('#math .math-block').first()).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test('a scale-down of many pods: the ranking shows the first victims, the cut and the survivors, and fits the panel', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(page, webDeployment('shop', 100));
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-label')).toHaveText(/^step (\d{3,}) \/ \1/, { timeout: 60_000 });
  // Scaled from 100 to 10, the ReplicaSet deletes 90 pods in one sync.
  await whatIf(page, 'scale', { replicas: '10' }, 'apply');
  await page.locator('#settle-btn').click();
  await expect(page.locator('.deploy[data-name="web"] .deploy-meta')).toContainText('status: total 10,');
  const ranking = await deletionRankings(page);
  expect(ranking).toHaveLength(1);
  const { step, diff, pods } = ranking[0]!;
  expect(diff).toBe(90);
  const victims = pods.filter((p) => p.victim);
  const survivors = pods.filter((p) => !p.victim);
  expect(victims).toHaveLength(90);
  expect(survivors.length).toBeGreaterThan(0);
  await scrubTo(page, step);
  const { table, scroller, fit } = await rankingTable(page);
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? '')));
  // The first five victims, a line for the 83 between, the last two (the cut), then the survivors.
  const row = (p: RankedPod) => [p.name, p.victim ? 'yes' : ''];
  expect(rows.map((r) => (r.length === 1 ? r : r.slice(0, 2)))).toEqual([
    ...victims.slice(0, 5).map(row),
    ['… 83 more victims, in deletion order (the trace lists them all)'],
    ...victims.slice(-2).map(row),
    ...survivors.map(row),
  ]);
  expect(rows[7]![2]).toBe(victims.at(-1)!.decidedBy);
  // Each row on one line, and the table within the panel (a pod name broken at its hyphens took three lines).
  expect(fit.overflow).toBe(0);
  expect(fit.tallest).toBeLessThan(fit.shortest * 1.2);
  // Its scroller (for a table wider than the panel) is a named region the keyboard reaches.
  await expect(scroller).toHaveAttribute('aria-label', 'ranked, victims first');
  await expect(scroller).toHaveAttribute('tabindex', '0');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot('ranking-90') });
  expect(problems).toEqual([]);
});

test('Pause stays on the step on screen when it was pressed, though the engine was taking a tick', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  // Every engine call takes 150 ms, so that a tick of playback is under way
  // whenever Pause is pressed.
  await page.evaluate(() => {
    const w = window as unknown as { __rolloutlabEngine: { call: (...a: unknown[]) => Promise<unknown> } };
    const engine = w.__rolloutlabEngine;
    const call = engine.call.bind(engine);
    engine.call = async (...a: unknown[]) => {
      await new Promise((r) => setTimeout(r, 150));
      return call(...a);
    };
  });
  await page.locator('#speed').selectOption('60');
  await page.locator('#play-btn').click();
  await expect.poll(() => currentStep(page), { timeout: 20_000 }).toBeGreaterThan(6);
  // Pressed while the next tick's answer is on its way: the step then on screen stays.
  const shown = await page.locator('#play-btn').evaluate((b) => {
    (b as HTMLButtonElement).click();
    return document.getElementById('step-label')!.textContent;
  });
  await expect(page.locator('#play-btn')).toHaveText('Play');
  await page.waitForTimeout(1000);
  // (The same step: the run may be known further by now, "step 7 / 9".)
  expect(await currentStep(page)).toBe(Number(/^step (\d+) \//.exec(shown!)![1]));
  // The engine is there too: one step on is the next step.
  const at = await currentStep(page);
  await page.locator('#step-btn').click();
  await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step ${at + 1} /`));
});

test('a Go panic is shown in a banner and the UI keeps working', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await page.keyboard.press('n');
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
  // The bridge reports the next advance as a panic (as wasm/dispatch.go does after recover()).
  await page.evaluate(() => {
    const engine = window.__rolloutlabEngine!;
    const real = engine.call.bind(engine);
    let armed = true;
    engine.call = (async (method: string, args?: unknown) => {
      if (method === 'advance' && armed) {
        armed = false;
        return { ok: false, error: { message: 'internal error in "advance": boom', line: 0, field: '', panic: true, errors: [] } };
      }
      return real(method, args);
    }) as typeof engine.call;
  });
  await page.keyboard.press('n');
  await expect(page.locator('#banner')).toBeVisible();
  await expect(page.locator('#banner')).toHaveAttribute('data-kind', 'panic');
  await expect(page.locator('#banner-text')).toContainText('boom');
  await expect(page.locator('#step-label')).toHaveText(/^step 1 \//);
  await page.screenshot({ path: shot('11-panic') });
  await page.keyboard.press('n');
  await expect(page.locator('#step-label')).toHaveText(/^step 2 \//);
  await page.locator('#banner-close').click();
  await expect(page.locator('#banner')).toBeHidden();
});
