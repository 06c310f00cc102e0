// The editor's lazy loader and the interface app.ts uses. CodeMirror arrives
// as a separate chunk on first use (or when the browser is idle after the
// first step is on screen).

/** A problem to mark at a line of the scenario. */
export interface LineError {
  /** 1-based line; 0 when the error has no position (marked on line 1). */
  line: number;
  /** 1-based column; 0 when unknown. */
  column: number;
  message: string;
}

/** What the app needs from an editor. */
export interface EditorHandle {
  getText(): string;
  setText(text: string): void;
  setErrors(errors: readonly LineError[]): void;
  gotoLine(line: number): void;
  focus(): void;
}

let module: Promise<typeof import('./editor-cm')> | null = null;

/** Starts downloading CodeMirror (idempotent). */
export function preloadEditor(): Promise<typeof import('./editor-cm')> {
  module ??= import('./editor-cm');
  return module;
}

/** Loads CodeMirror if needed and mounts an editor. */
export async function createEditor(parent: HTMLElement, doc: string, onRun: () => void, onChange?: () => void): Promise<EditorHandle> {
  const m = await preloadEditor();
  return m.mountEditor(parent, doc, onRun, onChange);
}
