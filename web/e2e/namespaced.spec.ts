// Issue #11's first must-show, as an SRE does it: paste a Helm-rendered
// manifest (Deployment `web` in namespace `shop` with containers `app` and
// `sidecar`, a Service and a ConfigMap), load it, set the image of one
// container in the what-if room, settle, and ask kubectl (with `-n shop`)
// whether the rollout finished. Screenshots (1280x720, light and dark) go
// to test-artifacts/.
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { pasteAndLoad, webDeployment } from './editor';

const shot = (name: string) => fileURLToPath(new URL(`../../test-artifacts/namespaced-${name}.png`, import.meta.url));

const manifest = `---
# Source: shop/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: shop
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop
    helm.sh/chart: web-1.4.2
data:
  nginx.conf: |
    server {
      listen 8080;
    }
---
# Source: shop/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop
  ports:
    - name: http
      port: 80
      targetPort: http
---
# Source: shop/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels:
    app.kubernetes.io/name: web
    app.kubernetes.io/instance: shop
    app.kubernetes.io/managed-by: Helm
  annotations:
    description: >-
      Storefront web tier with
      a log-shipping sidecar.
spec:
  replicas: 4
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      app.kubernetes.io/name: web
      app.kubernetes.io/instance: shop
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: web
        app.kubernetes.io/instance: shop
    spec:
      containers:
        - name: app
          image: "registry.example.com/shop/web:1.4.2"
          imagePullPolicy: IfNotPresent
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
        - name: sidecar
          image: "fluent/fluent-bit:3.0.4"
          args:
            - --config=/fluent-bit/etc/fluent-bit.conf
`;

test('Helm-style namespaced Deployment: set one container image, settle, rollout status -n shop succeeds', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#scenario-picker')).toBeEnabled();

  // Paste and load.
  const content = await pasteAndLoad(page, manifest);
  await expect(page.locator('#load-status')).toContainText('Loaded web');
  // The editor folds away once the paste has loaded: at 1280x720 the
  // cluster is on screen with the load status and the notices above it.
  await expect(page.locator('#editor-host')).toBeHidden();
  await expect(page.locator('#unfold-btn')).toBeFocused();
  await expect(page.locator('#edit-btn')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('.deploy[data-name="web"]')).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: shot('loaded-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shot('loaded-dark') });
  // The same in a docs page's 800x500 iframe: the controls and the
  // Deployment's first lines still show without scrolling.
  await page.setViewportSize({ width: 800, height: 500 });
  await expect(page.locator('#step-btn')).toBeInViewport();
  // Each notice takes one line there (its whole text is its title).
  for (const li of await page.locator('#load-errors li').all()) expect((await li.boundingBox())!.height).toBeLessThan(30);
  await expect(page.locator('#load-errors li button').first()).toHaveAttribute('title', /ConfigMap\/web-config: ignored/);
  await expect(page.locator('.deploy[data-name="web"] .deploy-title')).toBeInViewport({ ratio: 1 });
  // The pod-colour legend folds there (three lines at that width), so the
  // budget line is in view too; it opens again in a taller window.
  await expect(page.locator('#pod-legend')).toBeHidden();
  await expect(page.locator('.deploy[data-name="web"] .deploy-budget')).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800); // nothing widens the page
  await page.screenshot({ path: shot('loaded-800-dark') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: shot('loaded-800-light') });
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.locator('#pod-legend')).toBeVisible();
  const notices = page.locator('#load-errors li');
  await expect(notices.filter({ hasText: 'ConfigMap/web-config' })).toContainText('ignored (not simulated)');
  await expect(notices.filter({ hasText: 'Service/web' })).toContainText('ignored (not simulated)');
  await expect(notices.filter({ hasText: 'ignored (not simulated)' }).first()).toBeVisible();
  // The picker and the title follow the paste, not the scenario shown before.
  await expect(page.locator('#scenario-picker option:checked')).toHaveText('Edited: web');
  await expect(page.locator('#scenario-name')).toHaveText('— web');
  await expect(page.locator('#scenario-desc')).toContainText('"web", loaded from the editor');
  // Straight after the paste (still step 0, as before it), the what-if target is the pasted Deployment.
  const room = page.locator('#whatif-room');
  await expect(room.locator('select.whatif-target option')).toHaveText(['shop/web']);
  await page.locator('#load-errors').scrollIntoViewIfNeeded();
  await expect(notices.filter({ hasText: 'Service/web' })).toBeInViewport();
  await page.screenshot({ path: shot('notices-light') });
  // A notice's line shows the editor again, at that line; Edit YAML then
  // hides the panel, and shows it again unfolded.
  await notices.filter({ hasText: 'Service/web' }).locator('button').click();
  await expect(content).toBeVisible();
  await expect(page.locator('#unfold-btn')).toBeHidden();
  await expect(page.locator('#edit-btn')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#editor-host .cm-activeLine')).toHaveText('apiVersion: v1'); // line 19 starts the Service
  await expect(page.locator('#editor-host .cm-activeLine + .cm-line')).toHaveText('kind: Service');
  await page.locator('#edit-btn').click();
  await expect(page.locator('#editor-panel')).toBeHidden();
  await page.locator('#edit-btn').click();
  await expect(content).toBeVisible();
  await expect(page.locator('#unfold-btn')).toBeHidden();
  await expect(content).toContainText('name: web-config');
  await page.locator('#edit-btn').click();
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-what')).toContainText('idle');

  // kubectl: every command names the namespace, and sees the objects.
  const cmd = page.locator('#kubectl-cmd');
  const out = page.locator('#kubectl-out');
  await expect(cmd.locator('option')).toContainText([
    'kubectl get deploy -o wide -n shop',
    'kubectl get rs -o wide -n shop',
    'kubectl get pods -o wide -n shop',
    'kubectl describe deployment web -n shop',
    'kubectl rollout status deployment/web -n shop',
    'kubectl rollout history deployment/web -n shop',
  ]);
  await cmd.selectOption('get pods -o wide -n shop');
  await expect(out).toContainText(/web-[a-z0-9]+-[a-z0-9]+ +2\/2 +Running/);
  await expect(out).not.toContainText('No resources found');

  // The what-if room: target shop/web, the container picker lists both containers.
  await expect(room.locator('select.whatif-target option:checked')).toHaveText('shop/web');
  await room.locator('.whatif-form-pick').selectOption('setImage');
  const form = room.locator('form[data-form="setImage"]');
  await expect(form.locator('select[name="container"] option')).toHaveText(['app · registry.example.com/shop/web:1.4.2', 'sidecar · fluent/fluent-bit:3.0.4']);
  await form.locator('select[name="container"]').selectOption('app');
  await form.locator('input[name="image"]').fill('registry.example.com/shop/web:1.5.0');
  await form.locator('button[data-mode="apply"]').click();
  await expect(form.locator('.form-error')).toBeEmpty();
  await expect(page.locator('#banner')).toBeHidden();

  // Step to completion.
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-what')).toContainText('idle');
  await cmd.selectOption('rollout status deployment/web -n shop');
  await expect(out).toContainText('deployment "web" successfully rolled out');
  // The container picker shows the images as they are now.
  await expect(form.locator('select[name="container"] option')).toHaveText(['app · registry.example.com/shop/web:1.5.0', 'sidecar · fluent/fluent-bit:3.0.4']);
  // Only app's image changed; sidecar kept its own.
  await cmd.selectOption('describe deployment web -n shop');
  await expect(out).toContainText('Namespace:              shop');
  await expect(out).toContainText(/app:\n(.*\n)*? +Image: +registry\.example\.com\/shop\/web:1\.5\.0/);
  await expect(out).toContainText(/sidecar:\n(.*\n)*? +Image: +fluent\/fluent-bit:3\.0\.4/);
  await expect(out).not.toContainText('web:1.4.2');
  await expect(out).toContainText(/NewReplicaSet: +web-[a-z0-9]+ \(4\/4 replicas created\)/);
  await cmd.selectOption('get rs -o wide -n shop');
  await expect(out).toContainText(/web-[a-z0-9]+ +4 +4 +4 .*app,sidecar +registry\.example\.com\/shop\/web:1\.5\.0,fluent\/fluent-bit:3\.0\.4/);
  await expect(out).toContainText(/web-[a-z0-9]+ +0 +0 +0 .*registry\.example\.com\/shop\/web:1\.4\.2,fluent\/fluent-bit:3\.0\.4/);
  await cmd.selectOption('rollout status deployment/web -n shop');
  await expect(out).toContainText('successfully rolled out');

  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('#kubectl-out').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('kubectl-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shot('kubectl-dark') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: shot('top-light') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: shot('top-dark') });
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('whatif-dark') });

  // A reload comes back to this run (the pasted file, the image set, the
  // step): the cluster in view, and the page's focus left alone (Space
  // still plays).
  const at = await page.locator('#step-label').textContent();
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('#banner')).toContainText('Back where you were: step ');
  await expect(page.locator('#banner')).toContainText('with your 1 action(s).');
  await expect(page.locator('#step-label')).toHaveText(at ?? '');
  await expect(page.locator('#load-status')).toContainText('Loaded web');
  await expect(page.locator('.deploy[data-name="web"] .deploy-meta')).toContainText('registry.example.com/shop/web:1.5.0');
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0)); // the reload kept the scroll position
  await expect(page.locator('.deploy[data-name="web"]')).toBeInViewport({ ratio: 1 });
  expect(problems).toEqual([]);
});

test('a long pasted manifest that fails to load keeps the reason in view, at its line', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  // 300 lines of ConfigMap data, then a StatefulSet and nothing Rollout Lab simulates.
  const data = Array.from({ length: 300 }, (_, i) => `  key${i}: value${i}`).join('\n');
  const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${data}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  replicas: 3\n`;
  await pasteAndLoad(page, text);
  await expect(page.locator('#load-status')).toContainText('Not loaded');
  const err = page.locator('#load-errors li').first();
  await expect(err).toContainText('nothing to simulate');
  const box = (await err.boundingBox())!;
  expect(box.y + box.height, 'the reason is on screen without scrolling').toBeLessThanOrEqual(720);
  const panel = page.locator('#editor-panel');
  expect(await panel.evaluate((e) => e.scrollHeight <= e.clientHeight + 1), 'the editor panel does not scroll inside').toBe(true);
});

test('a rollout that wants more pods than the limit: a notice at load, a banner when it stops', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(
    page,
    `apiVersion: rolloutlab.dev/v1alpha1
kind: Scenario
metadata: {name: tight}
spec:
  limits: {maxPods: 5}
  timeline:
    - when: {rolloutComplete: deployment/web}
      action: setImage
      target: deployment/web
      image: nginx:1.26
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  strategy: {rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1.25}]}
`,
  );
  await expect(page.locator('#load-errors li[data-code="limit"]')).toContainText('may want about 6 pods at once (4 replicas + maxSurge 2 new ones');
  await page.locator('#settle-btn').click();
  await expect(page.locator('#banner')).toBeVisible();
  await expect(page.locator('#banner-text')).toContainText(/^The run stopped at step \d+: /);
});

test('two namespaces with a Deployment "web" each: two cards, two charts lines, each with its own ReplicaSet and pods', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(page, `${webDeployment('prod', 10)}---\n${webDeployment('staging', 2)}`);
  await expect(page.locator('#load-status')).toContainText('Loaded');
  await page.locator('#settle-btn').click();
  const prod = page.locator('.deploy[data-namespace="prod"]');
  const staging = page.locator('.deploy[data-namespace="staging"]');
  await expect(prod.locator('.deploy-title')).toHaveText(/^Deployment prod\/web/);
  await expect(staging.locator('.deploy-title')).toHaveText(/^Deployment staging\/web/);
  // Same template, same ReplicaSet name, but each namespace its own.
  await expect(prod.locator('.rs')).toHaveCount(1);
  await expect(staging.locator('.rs')).toHaveCount(1);
  await expect(prod.locator('.rs .pod')).toHaveCount(10);
  await expect(staging.locator('.rs .pod')).toHaveCount(2);
  await expect(prod.locator('.deploy-budget')).toContainText('(now 10)');
  await expect(staging.locator('.deploy-budget')).toContainText('(now 2)');
  await expect(page.locator('#chart-legend')).toContainText('prod/web available');
  await expect(page.locator('#chart-legend')).toContainText('staging/web available');
  await page.screenshot({ path: shot('two-namespaces') });
});

test('the same manifest at 12 replicas: describe rs -n shop shows 9 Created pod Events and one combined, as a real cluster stores them', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  await pasteAndLoad(page, manifest.replace('replicas: 4', 'replicas: 12'));
  await expect(page.locator('#load-status')).toContainText('Loaded web');
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-what')).toContainText('idle');
  const cmd = page.locator('#kubectl-cmd');
  const out = page.locator('#kubectl-out');
  const describeRS = (await cmd.locator('option').allTextContents()).find((o) => /^kubectl describe rs web-\w+ -n shop$/.test(o));
  expect(describeRS).toBeTruthy();
  await cmd.selectOption(describeRS!.replace(/^kubectl /, ''));
  await expect(out).toContainText(/\(combined from similar events\): Created pod: web-\w+-\w+/);
  expect((await out.textContent())!.match(/ Created pod: web-/g)).toHaveLength(10);
  for (const [w, h] of [[1280, 720], [800, 500]] as const) {
    await page.setViewportSize({ width: w, height: h });
    // The output scrolls inside its panel: its end (the Events table) is
    // where a reader scrolls to.
    await out.evaluate((el) => {
      el.scrollIntoView({ block: 'end' });
      el.scrollTo(0, el.scrollHeight);
    });
    const box = (await out.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(h + 1); // sub-pixel layout
    expect(await out.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1)).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: shot(`combined-events-${w}x${h}-${scheme}`) });
    }
  }
});

// A Helm release of two Deployments (and a PodDisruptionBudget and an
// HorizontalPodAutoscaler, ignored with a notice each): a new image for the
// worker makes the worker's first ReplicaSet old, and leaves the api's only
// ReplicaSet unmarked. The badge used to say "old" of every ReplicaSet as
// soon as any Deployment had two.
test('two Deployments of one release: a rollout of one marks only its own ReplicaSets newest and old', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-app', 'ready');
  const deployment = (name: string, strategy: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: shop
  labels: {app.kubernetes.io/name: ${name}, helm.sh/chart: shop-1.4.2}
spec:
  replicas: 3
  strategy: ${strategy}
  selector:
    matchLabels: {app.kubernetes.io/name: ${name}}
  template:
    metadata:
      labels: {app.kubernetes.io/name: ${name}}
    spec:
      containers:
      - name: ${name}
        image: ghcr.io/acme/${name}:1.9.0
`;
  const release = `---
# Source: shop/templates/pdb.yaml
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api, namespace: shop}
spec:
  minAvailable: 2
  selector:
    matchLabels: {app.kubernetes.io/name: api}
---
# Source: shop/templates/hpa.yaml
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 3
  maxReplicas: 10
---
# Source: shop/templates/deployment-api.yaml
${deployment('api', '{rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}')}---
# Source: shop/templates/deployment-worker.yaml
${deployment('worker', '{type: Recreate}')}`;
  await pasteAndLoad(page, release);
  await expect(page.locator('#load-status')).toContainText('Loaded api (3 notice(s) below)');
  await expect(page.locator('#load-errors li[data-code]').filter({ hasText: 'HorizontalPodAutoscaler/api: ignored' })).toHaveCount(1);
  await page.locator('#settle-btn').click();
  await expect(page.locator('#step-what')).toContainText('idle');
  const api = page.locator('.deploy[data-name="api"] .rs');
  const worker = page.locator('.deploy[data-name="worker"] .rs');
  await expect(api).toHaveCount(1);
  await expect(worker).toHaveCount(1);

  const room = page.locator('#whatif-room');
  await room.locator('.whatif-target').selectOption({ label: 'shop/worker' });
  await room.locator('.whatif-form-pick').selectOption('setImage');
  const form = room.locator('form[data-form="setImage"]');
  await form.locator('input[name="image"]').fill('ghcr.io/acme/worker:2.0.0');
  await form.locator('button[data-mode="apply"]').click();
  for (let i = 0; i < 10 && (await worker.count()) < 2; i++) await page.locator('#sync-btn').click();
  await expect(worker).toHaveCount(2);
  await expect(worker.nth(0)).toHaveAttribute('data-age', 'new');
  await expect(worker.nth(0).locator('.rs-head')).toContainText('ghcr.io/acme/worker:2.0.0 · newest');
  await expect(worker.nth(1)).toHaveAttribute('data-age', 'old');
  await expect(worker.nth(1).locator('.rs-head')).toContainText('ghcr.io/acme/worker:1.9.0 · old');
  await expect(api).toHaveAttribute('data-age', 'only');
  await expect(api.locator('.rs-head')).toHaveText(/ghcr\.io\/acme\/api:1\.9\.0$/);
  // Recreate: the worker's old pods are gone before its new ones start; the api's 3 are left, one per node.
  await expect(page.locator('#nodes')).toHaveText('Nodes — node-1: 1 pod · node-2: 1 pod · node-3: 1 pod');
  await page.locator('#panel-cluster').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: shot('two-deployments-one-rollout') });
});
