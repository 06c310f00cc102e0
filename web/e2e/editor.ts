// Shared by the specs that paste YAML: open the editor (Edit YAML), replace
// its text as a paste would, and press Load; and by those that then act in
// the What if? room.
import { expect, type Locator, type Page } from '@playwright/test';

/** A Deployment "web" of one container "app" (nginx:1.25) in namespace ns, as a user pastes one. */
export function webDeployment(ns: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.25
`;
}

/** Pastes text over the editor's and loads it; returns the editor's content element. */
export async function pasteAndLoad(page: Page, text: string): Promise<Locator> {
  await page.locator('#edit-btn').click();
  const content = page.locator('#editor-host .cm-content');
  await expect(content).toBeVisible();
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
  await page.locator('#load-btn').click();
  return content;
}

/** Picks a form of the What if? room, fills its fields by name and presses "Apply now" or "What if, instead?"; returns the form. */
export async function whatIf(page: Page, form: string, values: Record<string, string>, mode: 'apply' | 'fork'): Promise<Locator> {
  const room = page.locator('#whatif-room');
  await room.locator('.whatif-form-pick').selectOption(form);
  const f = room.locator(`form[data-form="${form}"]`);
  for (const [name, value] of Object.entries(values)) await f.locator(`[name="${name}"]`).fill(value);
  await f.locator(`button[data-mode="${mode}"]`).click();
  return f;
}

/** Moves the step slider to step, as a drag released there does, and waits for the step on screen. */
export async function scrubTo(page: Page, step: number): Promise<void> {
  await page.locator('#scrubber').fill(String(step));
  await page.locator('#scrubber').dispatchEvent('change');
  await expect(page.locator('#step-label')).toHaveText(new RegExp(`^step ${step} /`));
}

/** A pod of a DeletionRanking record (engine/podutil/delete.go). */
export interface RankedPod {
  name: string;
  victim: boolean;
  node: string;
  decidedBy: string;
}

/** The DeletionRanking records of the run computed so far, from the engine. */
export async function deletionRankings(page: Page): Promise<{ step: number; diff: number; sorted: boolean; pods: RankedPod[] }[]> {
  return page.evaluate(async () => {
    type Rec = { step: number; type: string; data: { diff: number; sorted: boolean; pods: RankedPod[] } };
    const r = await window.__rolloutlabApp!.engineCall<{ records: Rec[] }>('records', { kinds: ['decision'], limit: 10000, last: true });
    return r!.records.filter((x) => x.type === 'DeletionRanking').map((x) => ({ step: x.step, ...x.data }));
  });
}

/** The math panel's ranking table, and how it sits in its scroller: its overflow, whether "decided by" is in view, and its rows' heights. */
export async function rankingTable(page: Page) {
  const table = page.locator('#math .math-block[data-type="DeletionRanking"] table.math-table');
  await expect(table).toBeVisible();
  const fit = await table.evaluate((t) => {
    const scroller = t.parentElement!;
    const decided = [...t.querySelectorAll('thead th')].find((th) => th.textContent === 'decided by')!.getBoundingClientRect();
    const heights = [...t.querySelectorAll('tbody tr:not(.more-rows)')].map((tr) => tr.getBoundingClientRect().height);
    return { overflow: scroller.scrollWidth - scroller.clientWidth, decidedInView: decided.right <= scroller.getBoundingClientRect().right, tallest: Math.max(...heights), shortest: Math.min(...heights) };
  });
  return { table, scroller: table.locator('xpath=..'), fit };
}
