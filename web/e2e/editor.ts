// Shared by the specs that paste YAML: open the editor (Edit YAML), replace
// its text as a paste would, and press Load.
import { expect, type Locator, type Page } from '@playwright/test';

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
