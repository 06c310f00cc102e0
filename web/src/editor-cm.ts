// The scenario editor: CodeMirror 6 with YAML highlighting and lint markers.
// This module is only ever loaded through a dynamic import() (editor.ts), so
// CodeMirror stays out of the first-load bytes.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import type { EditorHandle, LineError } from './editor';

// YAML colours from the page's CSS variables (style.css, --syn-*), so the
// editor follows the light and dark themes; CodeMirror's default style is
// for light backgrounds only (dark blue keys on a dark page).
const yamlColours = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--syn-key)' },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: 'var(--syn-str)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syn-num)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.meta, tags.labelName, tags.typeName, tags.keyword], color: 'var(--syn-meta)' },
]);

/** Mounts an editor in parent; Mod-Enter runs onRun; onChange follows every change of the text. */
export function mountEditor(parent: HTMLElement, doc: string, onRun: () => void, onChange?: () => void): EditorHandle {
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
        syntaxHighlighting(yamlColours),
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }, ...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ 'aria-label': 'Scenario YAML' }),
        // After the change is in the document (a DOM input event comes
        // before it: a draft saved on it lacked the last key typed).
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange?.();
        }),
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
