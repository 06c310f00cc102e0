// A large run's view lists only its first pods (MAX_PODS), so the cluster
// view draws each of its ReplicaSets from the status counts: so many
// available, ready, not ready and terminating squares. Such squares stand
// for counts, not pods (no name, no tooltip of their own, no animation), so
// they are painted on one canvas per ReplicaSet instead of being one element
// each. A seek across a rollout of 10,000 replicas used to create, style
// and lay out about 500 of those elements in the frame that shows it
// (8-10 ms of a 25 ms frame); painting them costs well under a millisecond.
//
// The canvas takes its measures from the page's CSS, so that it looks like
// the squares drawn one element each (and follows presenter mode, the
// embedded player's smaller squares and the theme): a hidden square
// (.pod.square-probe) gives their size, corner radius and colours, a
// zero-height ruler the width to fill, and the container its gap. Both are
// watched with a ResizeObserver, whose callbacks come after layout: they
// read the measures while the page's style is up to date and draw again.
// Neither's size depends on the canvas, so setting its height there starts
// no second round of notifications, as long as the panel that scrolls the
// squares keeps its scrollbar's room (scrollbar-gutter: stable in the CSS):
// else a canvas grown past the panel's edge would bring a scrollbar that
// narrows every ruler in the same frame.

import { h } from '../dom';
import type { ReplicaSetView } from '../types';

/** A square's state, as the squares drawn one element each name it (podState). */
export type SquareState = 'available' | 'ready' | 'pending' | 'terminating';

/** A run of squares of one state, in the order drawn. */
export interface SquareRun {
  state: SquareState;
  n: number;
}

/**
 * The squares a ReplicaSet's status counts stand for, at most max in all:
 * its available pods, then those ready but not yet available, those not
 * ready, and those terminating.
 */
export function countedRuns(rs: ReplicaSetView, max = Infinity): SquareRun[] {
  const out: SquareRun[] = [];
  let left = max;
  const add = (state: SquareState, n: number) => {
    const k = Math.min(Math.max(0, n), left);
    if (k > 0) out.push({ state, n: k });
    left -= k;
  };
  add('available', rs.available);
  add('ready', rs.ready - rs.available);
  add('pending', rs.current - rs.ready);
  add('terminating', rs.terminating ?? 0);
  return out;
}

/** How many squares countedRuns(rs) gives without a cap (its status counts summed). */
export function countedTotal(rs: ReplicaSetView): number {
  return countedRuns(rs).reduce((n, r) => n + r.n, 0);
}

/** Where each square goes: perRow to a row, size px wide with gap px between, on a canvas height px tall. */
export interface SquareGrid {
  perRow: number;
  rows: number;
  height: number;
}

/** The grid of n squares of size px, gap px apart, in a row width px wide (the flex-wrap layout of the squares drawn one element each). */
export function squareGrid(n: number, width: number, size: number, gap: number): SquareGrid {
  const perRow = Math.max(1, Math.floor((width + gap) / (size + gap)));
  const rows = Math.ceil(n / perRow);
  return { perRow, rows, height: rows > 0 ? rows * size + (rows - 1) * gap : 0 };
}

/** What the CSS says a square looks like. */
interface Look {
  size: number;
  radius: number;
  gap: number;
  fill: Record<Exclude<SquareState, 'terminating'>, string>;
  /** The dashed outline of a terminating square and its opacity. */
  outline: string;
  outlineWidth: number;
  terminatingAlpha: number;
}

/** The canvases by the elements watched for them (each one's ruler and probe). */
const watched = new Map<Element, SquareCanvas>();
let observer: ResizeObserver | null = null;

/**
 * Reads what every canvas needs, then draws them all: a draw can change a
 * canvas's height, and a read after it would make the browser lay the page
 * out again there and then.
 */
function measureThenPaint(canvases: Iterable<SquareCanvas>, read: (c: SquareCanvas) => void): void {
  const all = [...new Set(canvases)];
  for (const c of all) read(c);
  for (const c of all) c.paint();
}

function resizeObserver(): ResizeObserver {
  observer ??= new ResizeObserver((entries) => {
    const touched: SquareCanvas[] = [];
    const widths = new Map<SquareCanvas, number>();
    for (const e of entries) {
      const c = watched.get(e.target);
      if (!c) continue;
      touched.push(c);
      if (c.isRuler(e.target)) widths.set(c, e.contentRect.width);
    }
    measureThenPaint(touched, (c) => c.measured(widths.get(c)));
  });
  return observer;
}

// A theme switch changes the colours but no size: every canvas reads its
// look again and draws, in the next frame (the attribute that switches it
// is on the page's root, or on the embedded player's host element).
let themeWatched = false;
const hostsWatched = new WeakSet<Element>();
function restyleAll(): void {
  requestAnimationFrame(() => measureThenPaint(watched.values(), (c) => c.restyle()));
}
function watchTheme(): void {
  if (themeWatched) return;
  themeWatched = true;
  new MutationObserver(restyleAll).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', restyleAll);
  watchResolution();
}
/** Draws again at a new device pixel ratio (the window moved to another screen), which changes no CSS size. */
function watchResolution(): void {
  window.matchMedia?.(`(resolution: ${window.devicePixelRatio || 1}dppx)`).addEventListener?.(
    'change',
    () => {
      restyleAll();
      watchResolution();
    },
    { once: true },
  );
}
/** Watches the embedded player's host element, which carries its theme. */
function watchHost(host: Element): void {
  if (hostsWatched.has(host)) return;
  hostsWatched.add(host);
  new MutationObserver(restyleAll).observe(host, { attributes: true });
}

// A canvas's first drawing allocates its pixels and its first context
// (2-6 ms each, measured in Chromium): a seek that replaces the
// ReplicaSets shown would pay that for each new one in the frame that
// shows them. Canvases of ReplicaSets gone from the page are kept for the
// next ones, a few at most.
const spare: HTMLCanvasElement[] = [];
const MAX_SPARE = 8;
function takeCanvas(): HTMLCanvasElement {
  return spare.pop() ?? h('canvas', { class: 'pods-canvas', 'aria-hidden': 'true' });
}
function giveBack(c: HTMLCanvasElement): void {
  c.remove();
  if (spare.length < MAX_SPARE && !spare.includes(c)) spare.push(c);
}

/** The squares of one ReplicaSet on a canvas, in a container laid out as .pods. */
export class SquareCanvas {
  private canvas: HTMLCanvasElement | null = null;
  private readonly ruler = h('span', { class: 'pods-ruler', 'aria-hidden': 'true' });
  private readonly probe = h('span', { class: 'pod square-probe', 'aria-hidden': 'true' });
  private runs: SquareRun[] = [];
  /** The ruler's width (the row the squares fill), in CSS px; 0 until measured. */
  private width = 0;
  /** The squares' measures and colours from the CSS; null until read (after layout). */
  private look: Look | null = null;
  /** Whether the ruler and the probe are observed (from attach until detach, or until found off the page). */
  private watching = false;

  constructor(private readonly container: HTMLElement) {
    watchTheme();
  }

  /** Puts a canvas in the container (its only content) and starts watching its measures. */
  attach(): void {
    this.canvas ??= takeCanvas();
    this.container.replaceChildren(this.ruler, this.probe, this.canvas);
    this.watch();
    const root = this.container.getRootNode();
    if (root instanceof ShadowRoot) watchHost(root.host);
  }

  /**
   * Takes the canvas and its measuring elements out of the container (and
   * nothing else: when not attached, the container holds the squares drawn
   * one element each), stops watching them and gives the canvas back.
   */
  detach(): void {
    this.unwatch();
    if (this.attached) this.container.replaceChildren();
    this.release();
  }

  /** Whether the canvas's elements are in the container. */
  get attached(): boolean {
    return this.ruler.parentNode === this.container;
  }

  /** Whether el is this canvas's ruler. */
  isRuler(el: Element): boolean {
    return el === this.ruler;
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    for (const el of [this.ruler, this.probe]) {
      watched.set(el, this);
      resizeObserver().observe(el);
    }
  }

  private unwatch(): void {
    if (!this.watching) return;
    this.watching = false;
    for (const el of [this.ruler, this.probe]) {
      observer?.unobserve(el);
      watched.delete(el);
    }
  }

  /** Gives the canvas back for another ReplicaSet's squares. */
  private release(): void {
    if (this.canvas) giveBack(this.canvas);
    this.canvas = null;
    this.width = 0;
  }

  /** Draws these runs (now if the measures are known, else once they are). */
  draw(runs: SquareRun[]): void {
    this.runs = runs;
    this.paint();
  }

  /**
   * The ResizeObserver's news: the ruler is width px wide now (undefined:
   * it did not change), or the probe's size changed, or either was first
   * laid out. Reads only: paint follows.
   */
  measured(width: number | undefined): void {
    // A ReplicaSet's element taken off the page (its ReplicaSet is gone
    // from the view) is let go, and its canvas kept for another (the
    // cluster view does so at once; this catches any other way off).
    if (!this.ruler.isConnected) {
      this.detach();
      return;
    }
    if (width !== undefined) this.width = width;
    this.look = this.readLook();
  }

  /** The theme or the pixel ratio changed: reads the colours again (paint follows). */
  restyle(): void {
    if (this.attached && this.width > 0) this.look = this.readLook();
  }

  private readLook(): Look {
    const s = getComputedStyle(this.probe);
    const px = (v: string) => parseFloat(v) || 0;
    const v = (name: string) => s.getPropertyValue(name).trim();
    return {
      size: px(s.width),
      radius: px(s.borderTopLeftRadius),
      gap: px(getComputedStyle(this.container).columnGap),
      fill: { available: v('--ok'), ready: v('--ready'), pending: v('--pend') },
      outline: v('--danger'),
      outlineWidth: 2,
      terminatingAlpha: 0.7,
    };
  }

  /** Draws the runs with the measures known (nothing until they are). */
  paint(): void {
    const c = this.canvas;
    const look = this.look;
    if (!c || !this.attached || this.width <= 0 || !look || look.size <= 0) return;
    const n = this.runs.reduce((a, r) => a + r.n, 0);
    const grid = squareGrid(n, this.width, look.size, look.gap);
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(this.width * dpr);
    const hgt = Math.round(grid.height * dpr);
    if (c.style.height !== `${grid.height}px`) c.style.height = `${grid.height}px`;
    // Setting a canvas's size clears it, even to the same size.
    if (c.width !== w) c.width = w;
    if (c.height !== hgt) c.height = hgt;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, grid.height);
    const pitch = look.size + look.gap;
    let i = 0;
    for (const run of this.runs) {
      ctx.beginPath();
      for (let k = 0; k < run.n; k++, i++) {
        const x = (i % grid.perRow) * pitch;
        const y = Math.floor(i / grid.perRow) * pitch;
        if (run.state === 'terminating') {
          // An outline drawn inside the square, as CSS's outline-offset: -2px.
          const o = look.outlineWidth / 2;
          rounded(ctx, x + o, y + o, look.size - 2 * o, Math.max(0, look.radius - o));
        } else {
          rounded(ctx, x, y, look.size, look.radius);
        }
      }
      if (run.state === 'terminating') {
        ctx.save();
        ctx.globalAlpha = look.terminatingAlpha;
        ctx.strokeStyle = look.outline;
        ctx.lineWidth = look.outlineWidth;
        ctx.setLineDash([look.outlineWidth * 2, look.outlineWidth]);
        ctx.stroke();
        ctx.restore();
      } else {
        ctx.fillStyle = look.fill[run.state];
        ctx.fill();
      }
    }
  }
}

/** Adds a square with rounded corners to the path (a plain one where roundRect is missing). */
function rounded(ctx: CanvasRenderingContext2D, x: number, y: number, size: number, r: number): void {
  if (r > 0 && typeof ctx.roundRect === 'function') ctx.roundRect(x, y, size, size, r);
  else ctx.rect(x, y, size, size);
}
