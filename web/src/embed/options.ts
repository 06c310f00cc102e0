// What an embedded player shows and how it starts, read from an element's
// attributes (`<rollout-lab scenario="rollback" panels="cluster,math">`,
// `<div data-rollout-lab data-scenario="...">`) or from the /embed page's
// query string (`/embed?scenario=rollback&step=12&autoplay=1`).

/** The panels a player can show, in display order. */
export const PANELS = ['cluster', 'math', 'chart', 'trace', 'queues', 'expectations'] as const;
export type PanelName = (typeof PANELS)[number];

/** Shown when the embedder does not choose. */
export const DEFAULT_PANELS: readonly PanelName[] = ['cluster', 'math', 'chart'];

export interface EmbedOptions {
  /** Inline scenario YAML (element content or a `source` attribute/parameter). */
  source: string | null;
  /** A built-in scenario id ("rollback") or a same-origin URL of a YAML file. */
  scenario: string | null;
  panels: PanelName[];
  /** Step to show first (0 = the start). */
  step: number;
  autoplay: boolean;
  /**
   * Shows the scenario's notes (spec.annotations) above the panels, each
   * from the step it is about, with buttons to go to the previous and next
   * one (default true; a scenario without notes shows no strip).
   */
  notes: boolean;
  /**
   * Starts at the step of this note (1 = the scenario's first annotation)
   * instead of at step: a docs page that names a note keeps pointing at
   * the same moment when the run's step numbers change. 0 = none.
   */
  note: number;
  /** Read-only (the default) hides everything that changes the simulation beyond stepping. */
  readonly: boolean;
  /** Play speed in steps per second. */
  speed: number;
  /** UI language tag, e.g. "zh-CN"; null follows the host page. */
  lang: string | null;
  /**
   * Colours: "light" or "dark"; null follows the page around the player
   * (its background, see pageTheme), else the system's preference.
   */
  theme: 'light' | 'dark' | null;
  /**
   * Why the scenario could not be had, when /embed.js on another site
   * fetched the scenario file for the iframe and failed (the `error`
   * parameter); the player says so instead of starting.
   */
  error: string | null;
}

/** A lookup of option names: attribute or query parameter values, null when absent. */
export type OptionSource = (name: string) => string | null;

function flag(v: string | null, dflt: boolean): boolean {
  if (v === null) return dflt;
  return !/^(0|false|no|off)$/i.test(v.trim());
}

function whole(v: string | null, dflt: number, min: number, max: number): number {
  if (v === null || !/^\s*\d+\s*$/.test(v)) return dflt;
  return Math.min(max, Math.max(min, Number(v)));
}

/**
 * Parses the options. Unknown panel names are ignored; an empty or fully
 * unknown list falls back to DEFAULT_PANELS.
 *
 *   parseOptions(n => ({ scenario: 'rollback', panels: 'math, chart', step: '7' })[n] ?? null)
 *     → { scenario: 'rollback', panels: ['math', 'chart'], step: 7, autoplay: false, readonly: true, … }
 */
export function parseOptions(get: OptionSource): EmbedOptions {
  const panels = (get('panels') ?? '')
    .split(/[\s,]+/)
    .map((p) => p.trim().toLowerCase())
    .filter((p): p is PanelName => (PANELS as readonly string[]).includes(p));
  const source = get('source');
  return {
    source: source && source.trim() ? source : null,
    scenario: get('scenario')?.trim() || null,
    panels: panels.length ? [...new Set(panels)] : [...DEFAULT_PANELS],
    step: whole(get('step'), 0, 0, 1_000_000),
    autoplay: flag(get('autoplay'), false),
    notes: flag(get('notes'), true),
    note: whole(get('note'), 0, 0, 1000),
    readonly: flag(get('readonly'), true),
    speed: whole(get('speed'), 5, 1, 240),
    lang: get('lang')?.trim() || null,
    theme: themeOf(get('theme')),
    error: get('error') || null,
  };
}

function themeOf(v: string | null): 'light' | 'dark' | null {
  const x = v?.trim().toLowerCase();
  return x === 'light' || x === 'dark' ? x : null;
}

/**
 * The theme of the page around el: light or dark after the luminance of
 * the nearest background that is not transparent (docs themes switch a
 * class that paints the body or a wrapper dark), null when nothing around
 * it is painted (the system's preference then applies).
 *
 *   a player on a page whose body is rgb(13, 17, 23) → 'dark'
 */
export function pageTheme(el: Element, style: (e: Element) => { backgroundColor: string } = getComputedStyle, toRGB: (css: string) => string = canvasRGB): 'light' | 'dark' | null {
  for (let e: Element | null = el.parentElement; e; e = e.parentElement) {
    let bg = style(e).backgroundColor;
    // Computed colours keep their space (oklch(0.145 0 0) in Tailwind 4 themes): read them back as rgb.
    if (bg && !/^rgba?\(|^transparent$/.test(bg)) bg = toRGB(bg);
    const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?/.exec(bg);
    if (!m) continue;
    const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number.parseFloat(m[4]) / 100 : Number(m[4]);
    if (alpha < 0.5) continue;
    const [r, g, b] = [m[1], m[2], m[3]].map((c) => Number(c) / 255) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5 ? 'dark' : 'light';
  }
  return null;
}

/** Any CSS colour as rgba(), painted on a pixel of a canvas ("" when there is no canvas). */
function canvasRGB(css: string): string {
  if (typeof document === 'undefined') return '';
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!ctx) return '';
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${(a ?? 0) / 255})`;
}

/** Styles a player of our own site (its shadow root's :host) light, dark, or as the system prefers (null). */
export function themeHost(el: Element, theme: 'light' | 'dark' | null): void {
  if (theme) el.setAttribute('data-rl-theme', theme);
  else el.removeAttribute('data-rl-theme');
}

/** Options from an element: `name` or `data-name` attributes. */
export function elementOptions(el: Element): OptionSource {
  return (name) => el.getAttribute(name) ?? el.getAttribute(`data-${name}`);
}

/** Options from a query string. */
export function queryOptions(search: string): OptionSource {
  const q = new URLSearchParams(search);
  return (name) => q.get(name);
}

/** Whether a scenario reference is a built-in id rather than a URL. */
export function isLibraryID(ref: string): boolean {
  return /^[a-z0-9][a-z0-9-]*$/.test(ref);
}
