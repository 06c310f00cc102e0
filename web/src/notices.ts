// Notices of a scenario that loaded: kinds that are not simulated, objects
// replaced by a later one of the same name, fields of pasted cluster output
// dropped or reinterpreted (engine/scenario Notice). They are listed where
// load errors go, each a button that moves the editor to its line.
import { h } from './dom';
import { t } from './i18n';
import './i18n/input';
import type { Notice } from './types';

/** noticeItems renders notices as <li> items; gotoLine moves the editor. */
export function noticeItems(notices: readonly Notice[], gotoLine: (line: number) => void): HTMLElement[] {
  return notices.map((n) => {
    const where = n.line ? t('input.notice.line', { line: n.line }) : t('input.notice.file');
    const what = n.kind ? `${n.kind}${n.name ? `/${n.name}` : ''}: ` : '';
    const text = `${where}: ${what}${n.message}`;
    // The title keeps the whole text where a short window cuts the line (style.css).
    const b = h('button', { type: 'button', class: 'notice-line', text, title: text });
    if (n.line) b.addEventListener('click', () => gotoLine(n.line ?? 0));
    return h('li', { 'data-line': n.line ?? 0, 'data-code': n.code }, b);
  });
}

/** loadedStatus is the status line after a load with notices. */
export function loadedStatus(scenario: string, notices: readonly Notice[]): string {
  if (!notices.length) return t('player.loaded', { name: scenario });
  return t('input.loaded.notices', { name: scenario, count: notices.length });
}
