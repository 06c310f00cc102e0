// Keeps the scenario editor's text across reloads and failed loads, and
// decides when replacing it needs the user's consent. Storage is passed in
// (localStorage in the page, a Map in tests).

/** The subset of Storage used here. */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const DRAFT_KEY = 'rolloutlab-editor-draft';

/** What is stored: the editor's text and the scenario it was edited from. */
export interface Draft {
  text: string;
  /** The source loaded when the text was last saved: the text is "edited" when it differs. */
  base: string;
}

/** Saves the editor's text; an unedited text (equal to what is loaded) is forgotten. */
export function saveDraft(store: KeyValue, text: string, loaded: string): void {
  try {
    if (text === loaded) store.removeItem(DRAFT_KEY);
    else store.setItem(DRAFT_KEY, JSON.stringify({ text, base: loaded } satisfies Draft));
  } catch {
    // storage full or disabled: the text stays in the editor for this visit
  }
}

/** The saved draft, if any. */
export function loadDraft(store: KeyValue): Draft | null {
  try {
    const raw = store.getItem(DRAFT_KEY);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Draft>;
    return typeof d.text === 'string' ? { text: d.text, base: typeof d.base === 'string' ? d.base : '' } : null;
  } catch {
    return null;
  }
}

/** Whether loading another scenario would throw away edits: the editor holds text that is neither empty nor what is loaded. */
export function hasEdits(editorText: string | null, loaded: string): boolean {
  return editorText !== null && editorText.trim() !== '' && editorText !== loaded;
}
