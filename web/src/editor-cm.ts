// The scenario editor: CodeMirror 6 with YAML highlighting and lint markers.
// This module is only ever loaded through a dynamic import() (editor.ts), so
// CodeMirror stays out of the first-load bytes.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import type { EditorHandle, LineError } from './editor';

/** Mounts an editor in parent; Mod-Enter runs onRun. */
export function mountEditor(parent: HTMLElement, doc: string, onRun: () => void): EditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        highlightActiveLine(),
        lintGutter(),
        yaml(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }, ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ 'aria-label': 'Scenario YAML' }),
      ],
    }),
  });
  return {
    getText: () => view.state.doc.toString(),
    setText(text: string) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setErrors(errors: readonly LineError[]) {
      const doc = view.state.doc;
      const diagnostics: Diagnostic[] = [];
      for (const e of errors) {
        const line = doc.line(Math.min(Math.max(e.line, 1), doc.lines));
        const from = Math.min(line.from + Math.max(e.column - 1, 0), line.to);
        diagnostics.push({ from, to: line.to > from ? line.to : from, severity: 'error', message: e.message });
      }
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    gotoLine(n: number) {
      const line = view.state.doc.line(Math.min(Math.max(n, 1), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
    focus: () => view.focus(),
  };
}
