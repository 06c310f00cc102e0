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
