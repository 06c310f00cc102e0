// The panel chooser: which panels show and in which order, remembered in
// localStorage. The order is applied with CSS `order` on the grid's panels,
// so the DOM (and every element id) stays where it is.
import { t } from '../i18n';
import { h } from '../dom';

/** The player's panels, in their default order. */
export const PANELS = ['cluster', 'math', 'chart', 'queue', 'exp', 'trace', 'steps', 'act', 'kubectl'] as const;
export type PanelId = (typeof PANELS)[number];

export interface PanelState {
  id: PanelId;
  shown: boolean;
}

/** Title key of each panel. */
export const PANEL_TITLES: Record<PanelId, string> = {
  cluster: 'player.cluster',
  math: 'player.math',
  chart: 'player.chart',
  queue: 'player.queues',
  exp: 'player.expectations',
  trace: 'player.trace',
  steps: 'player.timeline',
  act: 'player.act',
  kubectl: 'player.kubectl',
};

/**
 * Reads a stored layout; unknown ids are dropped, missing ones appended
 * (shown), so a layout saved by an older version still works.
 *
 *   parseLayout('[{"id":"math","shown":false}]')[0] → {id:'math', shown:false}
 */
export function parseLayout(raw: string | null): PanelState[] {
  let saved: unknown = null;
  try {
    saved = raw ? JSON.parse(raw) : null;
  } catch {
    saved = null;
  }
  const out: PanelState[] = [];
  if (Array.isArray(saved)) {
    for (const s of saved) {
      const id = (s as { id?: unknown })?.id;
      if (typeof id === 'string' && (PANELS as readonly string[]).includes(id) && !out.some((o) => o.id === id)) out.push({ id: id as PanelId, shown: (s as { shown?: unknown }).shown !== false });
    }
  }
  for (const id of PANELS) if (!out.some((o) => o.id === id)) out.push({ id, shown: true });
  return out;
}

/** Moves panel i by delta (−1 up, +1 down) and returns the new list. */
export function move(list: readonly PanelState[], i: number, delta: number): PanelState[] {
  const j = i + delta;
  const out = [...list];
  if (j < 0 || j >= out.length) return out;
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** A panel layout bound to a storage key and the page's panels. */
export class Layout {
  state: PanelState[];

  constructor(private readonly key: string, private readonly menu: HTMLElement | null) {
    let raw: string | null = null;
    try {
      raw = localStorage.getItem(key);
    } catch {
      raw = null;
    }
    this.state = parseLayout(raw);
  }

  /** Applies order and visibility to the panels and redraws the menu. */
  apply(): void {
    this.state.forEach((s, i) => {
      const el = document.getElementById(`panel-${s.id}`);
      if (!el) return;
      el.style.order = String(i);
      el.hidden = !s.shown;
    });
    this.renderMenu();
  }

  private save(): void {
    try {
      localStorage.setItem(this.key, JSON.stringify(this.state));
    } catch {
      /* storage blocked */
    }
  }

  private renderMenu(): void {
    if (!this.menu) return;
    const items = this.state.map((s, i) => {
      const name = t(PANEL_TITLES[s.id]);
      const box = h('input', { type: 'checkbox', id: `show-${s.id}`, checked: s.shown });
      box.addEventListener('change', () => {
        this.state[i] = { id: s.id, shown: box.checked };
        this.save();
        this.apply();
      });
      const up = h('button', { type: 'button', class: 'icon', 'aria-label': t('player.moveUp', { name }), text: '↑', disabled: i === 0 });
      const down = h('button', { type: 'button', class: 'icon', 'aria-label': t('player.moveDown', { name }), text: '↓', disabled: i === this.state.length - 1 });
      up.addEventListener('click', () => this.shift(i, -1));
      down.addEventListener('click', () => this.shift(i, 1));
      return h('li', { 'data-panel': s.id }, h('label', {}, box, ` ${name}`), up, down);
    });
    this.menu.replaceChildren(h('li', { class: 'muted small', text: t('player.panelsHint') }), ...items);
  }

  private shift(i: number, d: number): void {
    this.state = move(this.state, i, d);
    this.save();
    this.apply();
    (this.menu?.querySelector(`[data-panel="${this.state[i + d]?.id}"] button:not(:disabled)`) as HTMLElement | null)?.focus();
  }
}
