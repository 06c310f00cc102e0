// The replicas chart, drawn as hand-rolled SVG that reuses its elements: one
// line per ReplicaSet (spec.replicas) and per Deployment (available pods),
// each with its own colour and dash pattern, axis titles and round ticks.
// The x axis is the step (default) or virtual time; a range can be zoomed by
// dragging, or set to "from the last action".
import { formatOffset, h, patchChildren, setAttr, setText } from '../dom';
import { t } from '../i18n';
import type { Sample } from '../types';
import { type CachedSeries, lineStyle, linear, nearestStep, newStepLine, niceMax, PathWriter, SeriesCache, type StepLine, stepLine, ticks } from './chart';

const SVG = 'http://www.w3.org/2000/svg';
const W = 600;
const HGT = 230;
const PAD = { l: 46, r: 12, t: 10, b: 38 };
/** The overlay run's dash: finer than any of lineStyle's. */
const OVERLAY_DASH = '1 3';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Samples the chart's series take in per render (about 15 ms of work and of the collection of the points it keeps). */
const SAMPLES_PER_RENDER = 4096;

/** The replicas chart; clicking seeks to the nearest sample. */
export class ChartPanel {
  private readonly svg: SVGSVGElement;
  private readonly paths = new Map<string, SVGPathElement>();
  /** Each path's downsampled line, by the paths' keys: its arrays are reused by the next drawing. */
  private readonly lineBufs = new Map<string, StepLine>();
  private readonly pathWriter = new PathWriter();
  private readonly cursor: SVGLineElement;
  private readonly grid: SVGGElement;
  private readonly band: SVGRectElement;
  private readonly xTitle: SVGTextElement;
  private readonly yTitle: SVGTextElement;
  private samples: readonly Sample[] = [];
  private x = linear(0, 1, PAD.l, W - PAD.r);
  private dragFrom: number | null = null;
  /** What the x axis shows: the step index (default: every step gets room) or virtual time. */
  axis: 'step' | 'time' = 'step';
  /** The zoomed x range in axis units, or null for the whole run. */
  range: [number, number] | null = null;
  /** "action": zoom from the last user or timeline action (recomputed each render). */
  zoom: 'all' | 'action' = 'all';
  /** The step of the last action, set by the player. */
  lastActionStep = 0;
  /** A second run drawn thin, faint and dotted on the same axes (the what-if room's fork); null for none. */
  private overlay: readonly Sample[] | null = null;
  /** The overlay run's name and change, as the legend's last key says ("B: image=…"). */
  private overlayLabel = '';
  /** The series of the run and of the overlay, kept between renders (a step appends, a seek reuses). */
  private readonly series = new SeriesCache();
  private readonly overlaySeries = new SeriesCache();
  /** What the lines, ticks and legend were last drawn from; equal means only the cursor moves (a seek). */
  private drawn = '';
  /** The tick values the grid was last drawn with (a step that moves no tick leaves the grid alone). */
  private gridDrawn = '';
  /** The lines' drawing for the next animation frame (the last render's), and that frame's request (0: none). */
  private pendingLines: (() => void) | null = null;
  /** The frame of a render that adds the samples the last one had no budget for (0: none). */
  private catchUp = 0;
  /** The step the cursor was last drawn at (a catch-up render keeps it). */
  private shownStep = 0;
  private linesFrame = 0;

  /** Draws another run's samples over this one from the next render on, with label in the legend; null removes it. */
  setOverlay(samples: readonly Sample[] | null, label = ''): void {
    this.overlay = samples;
    this.overlayLabel = samples ? label : '';
  }

  constructor(root: HTMLElement, private readonly legend: HTMLElement, seek: (n: number) => void, private readonly onZoom: () => void = () => {}) {
    this.svg = svg('svg', { viewBox: `0 0 ${W} ${HGT}`, role: 'img' });
    this.grid = svg('g', { class: 'grid-lines' });
    const axis = svg('path', { class: 'axis', d: `M${PAD.l},${PAD.t}V${HGT - PAD.b}H${W - PAD.r}` });
    this.cursor = svg('line', { class: 'cursor' });
    this.band = svg('rect', { class: 'band', y: PAD.t, height: HGT - PAD.t - PAD.b, width: 0 });
    this.xTitle = svg('text', { class: 'axis-title', x: (PAD.l + W - PAD.r) / 2, y: HGT - 4, 'text-anchor': 'middle' });
    this.yTitle = svg('text', { class: 'axis-title', transform: `translate(12 ${(PAD.t + HGT - PAD.b) / 2}) rotate(-90)`, 'text-anchor': 'middle' });
    this.svg.append(this.grid, axis, this.cursor, this.band, this.xTitle, this.yTitle);
    root.append(this.svg);
    const at = (e: MouseEvent) => {
      const box = this.svg.getBoundingClientRect();
      return this.x.invert(((e.clientX - box.left) / box.width) * W);
    };
    this.svg.addEventListener('mousedown', (e) => {
      this.dragFrom = at(e);
    });
    this.svg.addEventListener('mousemove', (e) => {
      if (this.dragFrom === null) return;
      const a = this.x(this.dragFrom);
      const b = this.x(at(e));
      this.band.setAttribute('x', String(Math.min(a, b)));
      this.band.setAttribute('width', String(Math.abs(b - a)));
    });
    this.svg.addEventListener('mouseup', (e) => {
      const from = this.dragFrom;
      this.dragFrom = null;
      this.band.setAttribute('width', '0');
      if (from === null || this.samples.length === 0) return;
      const to = at(e);
      if (Math.abs(this.x(to) - this.x(from)) > 8) {
        this.range = [Math.min(from, to), Math.max(from, to)];
        this.zoom = 'all';
        this.onZoom();
        return;
      }
      if (this.axis === 'step') seek(Math.min(Math.max(0, Math.round(to)), this.samples.length - 1));
      else seek(nearestStep(this.samples, to));
    });
    this.svg.addEventListener('dblclick', () => {
      this.range = null;
      this.zoom = 'all';
      this.onZoom();
    });
  }

  /** Draws the lines a render left for the next animation frame now (bench-browser times a step with them). */
  flush(): void {
    if (this.linesFrame) cancelAnimationFrame(this.linesFrame);
    this.linesFrame = 0;
    const draw = this.pendingLines;
    this.pendingLines = null;
    draw?.();
  }

  render(samples: readonly Sample[], currentStep: number): void {
    this.samples = samples;
    this.shownStep = currentStep;
    setAttr(this.svg, 'aria-label', t('player.chartLabel'));
    // A long run's samples arrive at once (a settle of a 10,000-replica
    // rollout: 100,000, 130 ms to add in one task): at most
    // SAMPLES_PER_RENDER are added per render, and the chart renders itself
    // again in the next frame until it has them all.
    const series = this.series.update(samples, SAMPLES_PER_RENDER);
    const overlay = this.overlay ? this.overlaySeries.update(this.overlay, SAMPLES_PER_RENDER) : [];
    // (Not for a chart taken off the page: its next render catches up.)
    if (this.svg.isConnected && (this.series.behind(samples) || (this.overlay && this.overlaySeries.behind(this.overlay)))) {
      this.catchUp ||= requestAnimationFrame(() => {
        this.catchUp = 0;
        this.render(this.samples, this.shownStep);
      });
    }
    const last = samples[samples.length - 1];
    const byStep = this.axis === 'step';
    const pos = (s: Sample | undefined) => (s ? (byStep ? s.step : s.atNs) : 0);
    let lo = 0;
    let hi = Math.max(pos(last), pos(this.overlay?.[this.overlay.length - 1]), 1);
    if (this.zoom === 'action' && this.lastActionStep > 0) lo = pos(samples[Math.min(this.lastActionStep, samples.length - 1)]);
    else if (this.range) [lo, hi] = this.range;
    if (hi - lo < 1e-9) hi = lo + 1;
    this.x = linear(lo, hi, PAD.l, W - PAD.r);
    // The labels drawn, not just the language: a language's strings may arrive after the switch.
    const labels = ['player.axisStep', 'player.axisTime', 'player.axisReplicas', 'player.available', 'player.specReplicas'].map((k) => t(k)).join('|');
    const drawn = `${this.series.version}|${this.overlay ? this.overlaySeries.version : -1}|${this.overlayLabel}|${lo}|${hi}|${byStep}|${labels}`;
    if (drawn !== this.drawn) {
      this.drawn = drawn;
      // Drawn in the next animation frame, before it paints (so with this
      // render's cursor): several steps rendered within one frame, as when
      // stepping fast, draw the lines once, for the last of them.
      this.pendingLines = () => this.drawLines(series, overlay, lo, hi, byStep, last);
      this.linesFrame ||= requestAnimationFrame(() => this.flush());
    }
    const cur = samples[Math.min(currentStep, samples.length - 1)];
    const cx = this.x(pos(cur));
    setAttr(this.cursor, 'visibility', cx < PAD.l || cx > W - PAD.r ? 'hidden' : 'visible');
    setAttr(this.cursor, 'x1', cx.toFixed(1));
    setAttr(this.cursor, 'x2', cx.toFixed(1));
    setAttr(this.cursor, 'y1', String(PAD.t));
    setAttr(this.cursor, 'y2', String(HGT - PAD.b));
  }

  /** Draws the lines, the grid and ticks, the axis titles and the legend for the x range [lo, hi]. */
  private drawLines(series: CachedSeries[], overlay: CachedSeries[], lo: number, hi: number, byStep: boolean, last: Sample | undefined): void {
    // Each line downsampled to the plot's pixel columns: the cost is the chart's width, not the run's length.
    const line = (key: string, s: CachedSeries) => {
      let buf = this.lineBufs.get(key);
      if (!buf) this.lineBufs.set(key, (buf = newStepLine()));
      // The same scale as this.x: linear(lo, hi, PAD.l, W - PAD.r).
      return stepLine(s, byStep, lo, hi, PAD.l, W - PAD.r, buf);
    };
    const lines = series.map((s) => line(s.id, s));
    const overlayLines = overlay.map((s) => line(`overlay:${s.id}`, s));
    let vMax = 1;
    for (const l of lines) vMax = Math.max(vMax, l.max);
    for (const l of overlayLines) vMax = Math.max(vMax, l.max);
    const yMax = niceMax(vMax);
    const y = linear(0, yMax, HGT - PAD.b, PAD.t);
    const pathOf = (l: StepLine) => this.pathWriter.write(l, y);
    // ticks and grid, redrawn only when a tick moved
    const yt = ticks(0, yMax, 4).map((v) => [v, y(v).toFixed(1)] as const);
    const xt = (byStep ? ticks(lo, hi, 6).filter((v) => Number.isInteger(v)) : ticks(lo / 1e9, hi / 1e9, 6).map((v) => v * 1e9)).map((v) => [v, this.x(v).toFixed(1)] as const);
    const gridSig = `${byStep}|${yt.join(';')}|${xt.join(';')}`;
    if (gridSig !== this.gridDrawn) {
      this.gridDrawn = gridSig;
      const g: SVGElement[] = [];
      for (const [v, py] of yt) {
        g.push(svg('line', { class: 'tick', x1: PAD.l, x2: W - PAD.r, y1: py, y2: py }), Object.assign(svg('text', { x: PAD.l - 4, y: Number(py) + 4, 'text-anchor': 'end' }), { textContent: String(v) }));
      }
      for (const [v, px] of xt) {
        g.push(svg('line', { class: 'tick', x1: px, x2: px, y1: HGT - PAD.b, y2: HGT - PAD.b + 4 }), Object.assign(svg('text', { x: px, y: HGT - PAD.b + 15, 'text-anchor': 'middle' }), { textContent: byStep ? String(v) : `${+(v / 1e9).toFixed(3)}s` }));
      }
      // In place: a step that moves the ticks moves the same elements.
      patchChildren(this.grid, g);
    }
    setText(this.xTitle, byStep ? `${t('player.axisStep')} (${formatOffset(last?.atNs ?? 0)})` : t('player.axisTime'));
    setText(this.yTitle, t('player.axisReplicas'));
    const seen = new Set<string>();
    let rsIndex = 0;
    /** The legend's keys: style and label of each line (built into elements only when they changed). */
    const keys: { color: string; dash: string; label: string; overlay?: boolean }[] = [];
    for (const [i, s] of series.entries()) {
      seen.add(s.id);
      const avail = s.id.startsWith('available/');
      const st = lineStyle(avail ? 0 : rsIndex++, avail);
      let path = this.paths.get(s.id);
      if (!path) {
        path = svg('path');
        this.paths.set(s.id, path);
        this.svg.insertBefore(path, this.cursor);
      }
      setAttr(path, 'd', pathOf(lines[i]!));
      setAttr(path, 'class', `line ${st.color}`);
      setAttr(path, 'stroke-dasharray', st.dash || null);
      const label = avail ? t('player.available', { name: s.id.slice('available/'.length) }) : t('player.specReplicas', { name: s.label });
      keys.push({ color: st.color, dash: st.dash, label });
    }
    // The overlay run: each line in the colour of the same object's line,
    // thin, faint and finely dotted (CSS .line.overlay), so that no line of
    // it looks like one of the run's own (whose available line is dotted
    // too); one legend key names the run.
    const colorOf = new Map<string, string>();
    let oi = 0;
    for (const s of series) colorOf.set(s.id, lineStyle(s.id.startsWith('available/') ? 0 : oi++, s.id.startsWith('available/')).color);
    for (const [i, s] of overlay.entries()) {
      const id = `overlay:${s.id}`;
      seen.add(id);
      let path = this.paths.get(id);
      if (!path) {
        path = svg('path');
        this.paths.set(id, path);
        this.svg.insertBefore(path, this.cursor);
      }
      setAttr(path, 'd', pathOf(overlayLines[i]!));
      setAttr(path, 'class', `line overlay ${colorOf.get(s.id) ?? lineStyle(oi++, s.id.startsWith('available/')).color}`);
      setAttr(path, 'stroke-dasharray', OVERLAY_DASH);
    }
    if (overlay.length) keys.push({ color: 'avail', dash: OVERLAY_DASH, label: t('player.overlayKey', { label: this.overlayLabel }), overlay: true });
    for (const [id, p] of this.paths) if (!seen.has(id)) (p.remove(), this.paths.delete(id), this.lineBufs.delete(id));
    const sig = keys.map((k) => ` ${k.label}`).join('|');
    if (this.legend.dataset.sig !== sig) {
      this.legend.dataset.sig = sig;
      this.legend.replaceChildren(
        ...keys.map((k) => {
          const sample = svg('svg', { width: 28, height: 10, 'aria-hidden': 'true' });
          const ln = svg('line', { x1: 0, x2: 28, y1: 5, y2: 5, class: `line ${k.overlay ? 'overlay ' : ''}${k.color}` });
          if (k.dash) ln.setAttribute('stroke-dasharray', k.dash);
          sample.append(ln);
          return h('li', { class: k.overlay ? 'key overlay-key' : 'key' }, sample as unknown as HTMLElement, ` ${k.label}`);
        }),
      );
    }
  }
}
