// Notices of a scenario that loaded: kinds that are not simulated, objects
// replaced by a later one of the same name, fields of pasted cluster output
// dropped or reinterpreted (engine/scenario Notice). They are listed where
// load errors go, each a button that moves the editor to its line.
import { h } from './dom';
import { t } from './i18n';
import './i18n/input';
import type { Notice } from './types';

/**
 * noticeItems renders notices as <li> items; gotoLine moves the editor.
 * Notices that say the same of several objects of one kind (290 ConfigMaps
 * ignored, in a pasted namespace dump) are one item that counts them.
 */
export function noticeItems(notices: readonly Notice[], gotoLine: (line: number) => void): HTMLElement[] {
  return groupNotices(notices).map((g) => {
    const n = g[0]!;
    const text = noticeText(g);
    // The title keeps the whole text where a short window cuts the line
    // (style.css), and a group's names.
    const title = g.length >= GROUP_AT ? `${text}\n${g.map((x) => x.name).join(', ')}` : text;
    const b = h('button', { type: 'button', class: 'notice-line', text, title });
    if (n.line) b.addEventListener('click', () => gotoLine(n.line ?? 0));
    return h('li', { 'data-line': n.line ?? 0, 'data-code': n.code, ...(g.length >= GROUP_AT ? { 'data-count': g.length } : {}) }, b);
  });
}

/**
 * The text of a group of groupNotices: where (line, or the file) and what
 * of one notice, or how many objects of a kind on which lines for a group.
 */
export function noticeText(g: readonly Notice[]): string {
  const n = g[0]!;
  if (g.length >= GROUP_AT) {
    const lines = g.flatMap((x) => (x.line ? [x.line] : []));
    const shown = lines.slice(0, 5).join(', ') + (lines.length > 5 ? ', …' : '');
    return `${t('input.notice.group', { count: g.length, kind: n.kind ?? '', lines: shown })}: ${n.message}`;
  }
  const where = n.line ? t('input.notice.line', { line: n.line }) : t('input.notice.file');
  const what = n.kind ? `${n.kind}${n.name ? `/${n.name}` : ''}: ` : '';
  return `${where}: ${what}${n.message}`;
}

/** The fewest notices of one kind and message shown as one item. */
const GROUP_AT = 3;

/**
 * Groups notices that say the same (code, kind and message) of named
 * objects, in the order of their first; each other notice is a group of
 * its own.
 */
export function groupNotices(notices: readonly Notice[]): Notice[][] {
  const out: Notice[][] = [];
  const byKey = new Map<string, Notice[]>();
  for (const n of notices) {
    if (!n.kind || !n.name) {
      out.push([n]);
      continue;
    }
    const key = `${n.code}\u0000${n.kind}\u0000${n.message}`;
    const g = byKey.get(key);
    if (g) g.push(n);
    else {
      const fresh = [n];
      byKey.set(key, fresh);
      out.push(fresh);
    }
  }
  // Two of a kind read better apart.
  return out.flatMap((g) => (g.length >= GROUP_AT ? [g] : g.map((n) => [n])));
}

/** loadedStatus is the status line after a load with notices. */
export function loadedStatus(scenario: string, notices: readonly Notice[]): string {
  if (!notices.length) return t('player.loaded', { name: scenario });
  return t('input.loaded.notices', { name: scenario, count: notices.length });
}
