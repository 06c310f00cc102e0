// The embedded player: a compact, read-only stepper built from the app's own
// panels (panels.ts, chart.ts), mounted in a shadow root so that neither the
// host page's styles nor ours leak across. It owns one engine (its own Worker)
// started from the page's one compiled module (engine.ts).
//
// Host-page manners: it never calls focus() or scrollIntoView, keyboard
// shortcuts only act while focus is inside the player, and the keys it
// handles never scroll the host.

import { claimsOf } from '../diff';
import { formatOffset, h, setText } from '../dom';
import type { EngineClient } from '../engine';
import { t } from '../i18n';
import { type MathBlock, mathOf } from '../math';
import { ClusterPanel, renderExpectations, renderMath, renderQueues, renderTrace } from '../panels';
import { ChartPanel } from '../player/chartpanel';
import type { LibraryEntry, Notice, Sample, Snapshot, StepInfo, TraceRecord, View } from '../types';
import { MathTrail, type TrailHost } from '../player/mathsearch';
import { groupNotices, noticeText } from '../notices';
import { PressQueue } from '../keys';
import { list } from '../types';
import type { Annotation } from '../player/player';
import { NotesStrip } from './notes';
import { movedWithPods, podsSince } from '../podlist';
import { type EmbedOptions, isLibraryID, type PanelName } from './options';

/** Pods listed per view, as in the app (app.ts MAX_PODS). */
const MAX_PODS = 150;

/** Where to send "Open in Rollout Lab" (the app at the player's origin). */
/** Builds the app's link to a scenario (source, the file name it was loaded as) at a step. */
export type OpenLink = (source: string, step: number, name: string) => Promise<string>;

/** Steps computeAhead computes per engine call, and the most it computes in all. */
const AHEAD_CHUNK = 2000;
const AHEAD_LIMIT = 20000;

export class Player {
  readonly root: HTMLElement;
  private view: View | null = null;
  private samples: Sample[] = [];
  private mathByStep = new Map<number, MathBlock[]>();
  /** The steps with math (the keys of mathByStep) and the steps read for math (mathsearch.ts). */
  private readonly mathTrail = new MathTrail();
  private source = '';
  /** The file name the scenario was loaded as (a library id's "rollback.yaml"), for the app's link. */
  private sourceName = 'scenario.yaml';
  private playing = false;
  private playTimer = 0;
  private frame = 0;
  /** The reader's presses and clicks, one engine operation at a time. */
  private readonly presses = new PressQueue();
  /** Whether the whole run is known (computeAhead reached its end). */
  private ended = false;
  private aheadTimer = 0;
  private disposed = false;
  private samplesTimer = 0;
  private readonly els: Record<string, HTMLElement> = {};
  private cluster: ClusterPanel | null = null;
  private chart: ChartPanel | null = null;
  /** The scenario's notes above the panels (hidden when the embedder turned them off). */
  private readonly notes: NotesStrip;

  constructor(
    private readonly engine: Promise<EngineClient>,
    private readonly opts: EmbedOptions,
    private readonly openLink?: OpenLink,
  ) {
    this.notes = new NotesStrip(
      {
        records: async (from, limit) => (await this.call<{ records: TraceRecord[] | null }>('records', { from, kinds: ['decision'], limit }))?.records ?? null,
        seek: (step) => {
          this.pause();
          return this.seek(step);
        },
        computeMore: () => this.computeMore(),
        end: () => (this.view && (this.ended || this.view.maxStep >= AHEAD_LIMIT) ? this.view.maxStep : null),
        moves: () => (this.movesPending ? null : this.movesAsked),
        current: () => this.view,
        redraw: () => this.schedule(),
        hold: (fn) => this.holding(fn),
      },
      (fn) => this.noteMove(fn),
      opts.notes,
    );
    this.root = this.build();
  }

  // ------------------------------------------------------------ DOM

  private build(): HTMLElement {
    const btn = (id: string, label: string, onClick: () => void, keys?: string) => {
      const b = h('button', { type: 'button', class: `pl-${id}`, text: label, disabled: true, 'aria-keyshortcuts': keys });
      b.addEventListener('click', onClick);
      this.els[id] = b;
      return b;
    };
    const scrub = h('input', { type: 'range', class: 'pl-scrub', min: 0, max: 0, value: 0, 'aria-label': t('embed.scrubber'), disabled: true });
    scrub.addEventListener('change', () => void this.exclusive(() => this.seek(Number(scrub.value))));
    this.els.scrub = scrub;
    const label = h('output', { class: 'pl-label', 'aria-live': 'polite' });
    this.els.label = label;
    const status = h('p', { class: 'pl-status', role: 'status', text: t('embed.loading') });
    this.els.status = status;
    // What the file holds that the simulation leaves out or changes (a
    // Service, a pasted object's status, a scheduling rule): folded, so a
    // docs page's player keeps its panels.
    const notices = h('details', { class: 'pl-notices', hidden: true }, h('summary'), h('ul'));
    this.els.notices = notices;
    const title = h('span', { class: 'pl-title', text: 'Rollout Lab' });
    this.els.title = title;
    const open = h('a', { class: 'pl-open', href: '#', target: '_blank', rel: 'noopener', text: t('embed.open'), hidden: true });
    open.addEventListener('click', (e) => void this.openInApp(e));
    this.els.open = open;
    const controls = (this.els.controls = h(
      'div',
      { class: 'pl-controls', role: 'toolbar', 'aria-label': t('embed.controls'), title: t('embed.keys') },
      btn('back', t('embed.back'), () => void this.exclusive(() => this.back()), 'ArrowLeft'),
      btn('step', t('embed.step'), () => void this.exclusive(() => this.advance()), 'ArrowRight'),
      btn('play', t('embed.play'), () => this.togglePlay(), 'Space'),
      btn('reset', t('embed.reset'), () => void this.exclusive(() => this.seek(0))),
      scrub,
      label,
    ));
    const panels = h('div', { class: `pl-panels n${this.opts.panels.length}` }, ...this.opts.panels.map((p) => this.panel(p)));
    const root = h('div', { class: 'player', role: 'region', tabindex: 0, 'aria-label': 'Rollout Lab' }, h('div', { class: 'pl-head' }, title, open), controls, status, notices, this.notes.root, panels);
    root.addEventListener('keydown', (e) => this.onKey(e));
    return root;
  }

  private panel(name: PanelName): HTMLElement {
    const body = h('div', { class: `pl-body pl-body-${name}` });
    const section = h('section', { class: `panel pl-panel pl-${name}`, 'aria-label': t(`embed.panel.${name}`) }, h('h3', { text: t(`embed.panel.${name}`) }), body);
    switch (name) {
      case 'cluster': {
        const cluster = h('div', { class: 'cluster' });
        const nodes = h('div', { class: 'nodes' });
        body.append(cluster, nodes);
        this.cluster = new ClusterPanel(cluster, nodes);
        break;
      }
      case 'chart': {
        const chart = h('div', { class: 'chart' });
        const legend = h('ul', { class: 'legend' });
        body.append(chart, legend);
        this.chart = new ChartPanel(chart, legend, (n) => void this.exclusive(() => this.seek(n)));
        break;
      }
      case 'trace': {
        const label = h('p', { class: 'muted' });
        const ol = h('ol', { class: 'trace' });
        body.append(label, ol);
        this.els.traceLabel = label;
        this.els.trace = ol;
        break;
      }
      default: {
        const inner = h('div', { class: name === 'math' ? 'math' : name });
        body.append(inner);
        this.els[name] = inner;
      }
    }
    return section;
  }

  // ------------------------------------------------------------ start

  /** Resolves the scenario, loads it, goes to the start step and maybe plays. */
  async start(): Promise<void> {
    try {
      const engine = await this.engine;
      setText(this.els.status!, t('embed.loadingScenario'));
      if (this.opts.error) throw new Error(this.opts.error);
      const { source, name } = await this.resolveSource(engine);
      const r = await engine.call<Snapshot>('load', { source, name, maxPods: MAX_PODS });
      if (!r.ok) throw new Error(t('embed.invalid', { message: r.error.message }));
      this.source = source;
      this.sourceName = name;
      setText(this.els.title!, r.value.view.scenario);
      this.root.setAttribute('aria-label', t('embed.player', { name: r.value.view.scenario }));
      this.samples = r.value.samples ?? [];
      this.notes.load((r.value as Snapshot & { annotations?: Annotation[] }).annotations ?? []);
      if (this.notes.has()) this.els.controls!.title = t('embed.keysNotes');
      this.apply(r.value);
      this.showNotices(r.value.notices ?? []);
      /** Why the player starts elsewhere than asked (shown once it is ready). */
      let notice = '';
      if (this.opts.note > 0) {
        // A note names a moment that stays when step numbers change.
        if (!(await this.notes.goTo(this.opts.note))) {
          const total = this.notes.total();
          notice = this.opts.note > total ? t('embed.noSuchNote', { n: this.opts.note, total }) : t('embed.noteNotReached', { n: this.opts.note });
          if (this.view?.step) await this.seek(0); // the search for it may have gone to the end
        }
        await this.mathTrail.backfillNow(...this.mathSearch());
      } else if (this.opts.step > 0) {
        const at = await engine.call<Snapshot>('seek', { step: this.opts.step, maxPods: MAX_PODS });
        if (at.ok) this.apply(at.value);
        else {
          // A step past the run's end (a scenario shorter than the page
          // expected, or a large number meaning "the end"): the seek ran
          // to the end; show it.
          const end = await engine.call<Snapshot>('view', { maxPods: MAX_PODS });
          if (end.ok) await this.seek(end.value.view.maxStep);
        }
        await this.mathTrail.backfillNow(...this.mathSearch());
      }
      const status = this.els.status!;
      status.hidden = !notice;
      if (notice) {
        status.dataset.kind = 'warning';
        setText(status, notice);
        console.warn(`Rollout Lab player: ${notice}`);
      }
      for (const id of ['back', 'step', 'play', 'reset', 'scrub']) (this.els[id] as HTMLButtonElement).disabled = false;
      this.els.open!.hidden = this.opts.readonly || !this.openLink;
      this.root.dataset.ready = 'true';
      this.notes.ready();
      // Autoplay, unless the reader asked for less motion: while the
      // player is in view (a player far down the page waits for the reader,
      // and one scrolled away stops), until the reader takes the controls.
      if (this.opts.autoplay && !matchMedia('(prefers-reduced-motion: reduce)').matches) this.autoplayInView();
      this.computeAheadOnceSeen();
    } catch (e) {
      this.fail(e instanceof Error ? e.message : String(e));
    }
  }

  /**
   * Lists the loaded file's notices in a folded box under the controls, and
   * on the console for the page's author (a docs build's browser check sees
   * them): a reader of an embedded manifest learns that its Service is not
   * simulated, as the app's editor says.
   */
  private showNotices(all: readonly Notice[]): void {
    const box = this.els.notices as HTMLDetailsElement;
    // A bare manifest runs with the default cluster: the page's author chose
    // that, and the app's editor says it for a file pasted, not a player.
    const notices = all.filter((n) => n.code !== 'default-scenario');
    const groups = groupNotices(notices);
    box.hidden = groups.length === 0;
    if (!groups.length) return;
    const texts = groups.map((g) => noticeText(g));
    setText(box.children[0]!, t(notices.length === 1 ? 'embed.noticeOne' : 'embed.notices', { count: notices.length }));
    box.children[1]!.replaceChildren(...texts.map((text) => h('li', { text })));
    for (const text of texts) console.warn(`Rollout Lab player: ${text}`);
  }

  private async resolveSource(engine: EngineClient): Promise<{ source: string; name: string }> {
    if (this.opts.source) return { source: this.opts.source, name: 'scenario.yaml' };
    const ref = this.opts.scenario;
    if (!ref) throw new Error(t('embed.noScenario'));
    if (isLibraryID(ref)) {
      const lib = await engine.call<LibraryEntry[]>('library');
      const entry = lib.ok ? lib.value.find((e) => e.id === ref) : undefined;
      if (!entry) throw new Error(t('embed.unknownScenario', { id: ref, ids: lib.ok ? lib.value.map((e) => e.id).join(', ') : '' }));
      return { source: entry.source, name: `${entry.id}.yaml` };
    }
    const url = new URL(ref, document.baseURI);
    if (url.origin !== location.origin) throw new Error(t('embed.crossOrigin', { url: url.href }));
    let res: Response;
    try {
      res = await fetch(url, { credentials: 'same-origin' });
    } catch (e) {
      throw new Error(t('embed.fetchFailed', { url: url.href, message: (e as Error).message }));
    }
    if (!res.ok) throw new Error(t('embed.fetchFailed', { url: url.href, message: `HTTP ${res.status}` }));
    return { source: await res.text(), name: url.pathname.split('/').pop() || 'scenario.yaml' };
  }

  /** Called with the message when the player fails to start (mount.ts tells the host page). */
  onFail: ((message: string) => void) | null = null;

  private fail(message: string): void {
    this.onFail?.(message);
    this.pause();
    const s = this.els.status!;
    s.hidden = false;
    s.dataset.kind = 'error';
    setText(s, t('embed.failed', { message }));
    this.root.dataset.ready = 'error';
  }

  // ------------------------------------------------------------ engine

  private async call<T>(method: string, args?: unknown): Promise<T | null> {
    const r = await (await this.engine).call<T>(method, args);
    if (r.ok) return r.value;
    this.pause();
    const s = this.els.status!;
    s.hidden = false;
    s.dataset.kind = 'error';
    setText(s, `${method}: ${r.error.message}`);
    return null;
  }

  /** Runs a reader's press or click (PressQueue); repeat marks a held key's repeat. */
  private async exclusive(fn: () => Promise<unknown>, repeat = false): Promise<void> {
    // Only the reader's controls come here: autoplay stops following the view.
    this.takeOver();
    await this.presses.push(fn, repeat);
  }

  /**
   * Computes the run ahead of the reader, a chunk at a time between their
   * requests, so the slider spans the whole run and "/ N" is its length (a
   * fresh player read "step 0 / 0" and its slider could not move forward).
   * Up to AHEAD_LIMIT steps; past that the length reads "N+".
   */
  /** Starts computeAhead once the player is first in view: players far down a docs page cost nothing until the reader gets there. */
  private computeAheadOnceSeen(): void {
    if (typeof IntersectionObserver === 'undefined') return this.computeAhead();
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      this.computeAhead();
    });
    seen.observe(this.root);
    this.unobserve = () => seen.disconnect();
  }

  private unobserve: (() => void) | null = null;

  private computeAhead(): void {
    if (this.disposed || this.ended || !this.view || this.view.maxStep >= AHEAD_LIMIT) {
      // Done: the chart's samples of the whole run, once (not after every chunk).
      if (this.chart && this.view && this.samples.length < this.view.maxStep + 1) this.samplesSoon();
      return;
    }
    this.aheadTimer = window.setTimeout(async () => {
      this.aheadTimer = 0;
      const r = await (await this.engine).call<{ maxStep: number; ended: boolean }>('ahead', { steps: AHEAD_CHUNK });
      if (!r.ok || !this.view) return;
      this.grown(r.value);
      this.schedule();
      this.computeAhead();
    }, 0);
  }

  /** Takes what an "ahead" call computed: the run only grows here (an embedded player makes no action that would cut it); a step taken meanwhile may know as much already. */
  private grown(r: { maxStep: number; ended: boolean }): void {
    this.ended ||= r.ended;
    if (this.view) this.view = { ...this.view, maxStep: Math.max(this.view.maxStep, r.maxStep) };
  }

  /** Computes another chunk of the run for a note move (NotesHost.computeMore). */
  private async computeMore(): Promise<boolean> {
    if (this.ended || !this.view || this.view.maxStep >= AHEAD_LIMIT) return false;
    const r = await (await this.engine).call<{ maxStep: number; ended: boolean }>('ahead', { steps: AHEAD_CHUNK });
    if (!r.ok) return false;
    this.grown(r.value);
    return !this.ended && (this.view?.maxStep ?? 0) < AHEAD_LIMIT;
  }

  private apply(s: Snapshot): void {
    this.view = s.view;
    if (s.samples) this.samples = s.samples;
    const blocks = mathOf(list(s.view.records));
    if (blocks.length) this.mathByStep.set(s.view.step, blocks);
    this.mathTrail.saw(s.view.step, blocks.length > 0);
    if (this.chart && this.samples.length < s.view.maxStep + 1) this.samplesSoon();
    // The notes anchored to decision records read the records up to here.
    void this.notes.scan().then((read) => read && this.schedule(), () => {});
    this.schedule();
  }

  /**
   * The math panel's search back over the steps the reader jumped past (a
   * start step, the slider, a note, a tick of playback that took several
   * steps; MathTrail), with the steps' sequence numbers asked of the engine.
   * Not while playing (pausing renders again), nor while a note search
   * holds the drawing: its steps are not the reader's (it renders again
   * when it ends).
   */
  private mathSearch(): [ready: () => boolean, at: () => number, host: () => TrailHost | null] {
    return [
      () => !this.playing && !this.held && !!this.els.math,
      () => this.view?.step ?? 0,
      () => {
        const step = this.view?.step ?? 0;
        const call = async <T>(method: string, args: object): Promise<T | null> => {
          const r = await (await this.engine).call<T>(method, args);
          return r.ok ? r.value : null;
        };
        return {
          call: (args) => call('records', args),
          seqs: async (st) => (await call<StepInfo[]>('steps', { from: st, to: st }))?.[0],
          moved: () => this.view?.step !== step,
          found: (st, math) => {
            this.mathByStep.set(st, mathOf(math));
            this.schedule();
          },
        };
      },
    ];
  }

  private samplesSoon(): void {
    if (this.samplesTimer) return;
    this.samplesTimer = window.setTimeout(
      () => {
        this.samplesTimer = 0;
        void this.call<Sample[]>('samples').then((s) => {
          if (s) {
            this.samples = s;
            this.schedule();
          }
        });
      },
      this.playing ? 500 : 0,
    );
  }

  /** Seeks and steps asked of the engine so far, and those not answered yet (NotesHost.moves). */
  private movesAsked = 0;
  private movesPending = 0;

  /**
   * Calls a method that moves the engine to another step, counting it
   * (movesAsked). The pods come back only when they changed (podlist.ts);
   * when they were left out and the view shown is not theirs, the view is
   * asked for again.
   */
  private async moveCall(method: 'advance' | 'seek', args: object): Promise<Snapshot | null> {
    this.movesAsked++;
    this.movesPending++;
    try {
      const s = await this.call<Snapshot>(method, { ...args, ...podsSince(this.view) });
      return await movedWithPods(s, () => this.view, () => this.call<Snapshot>('view', { maxPods: MAX_PODS }));
    } finally {
      this.movesPending--;
    }
  }

  /**
   * Advances count steps. wanted, when given, is asked once the engine has
   * answered: false (the reader paused while the engine took a tick) keeps
   * the step on screen, where the reader pressed Pause, and takes the
   * engine back to it, unless another move was asked meanwhile (Back: its
   * answer sets the view). Returns the steps taken and shown.
   */
  async advance(count = 1, wanted?: () => boolean): Promise<number> {
    if (!this.view) return 0;
    const from = this.view.step;
    const call = this.moveCall('advance', { by: 'event', count, maxPods: MAX_PODS });
    const asked = this.movesAsked;
    const s = await call;
    if (!s) return 0;
    if (wanted && !wanted()) {
      if (this.movesAsked === asked) await this.seek(from);
      return 0;
    }
    const taken = s.steps?.length ?? 0;
    if (taken < count) this.ended = true; // nothing more is due
    this.apply(s);
    return taken;
  }

  async seek(step: number): Promise<void> {
    if (!this.view) return;
    const s = await this.moveCall('seek', { step: Math.max(0, step), maxPods: MAX_PODS });
    if (s) this.apply(s);
  }

  /** A note move (the strip's buttons, PageDown / PageUp): playback stops, as for Back. */
  private noteMove(fn: () => Promise<unknown>, repeat = false): void {
    this.pause();
    void this.exclusive(fn, repeat);
  }

  private async back(): Promise<void> {
    this.pause();
    if (this.view && this.view.step > 0) await this.seek(this.view.step - 1);
  }

  /** Counts the plays started: a tick of an earlier one (paused and played again while it awaited the engine) stops. */
  private plays = 0;

  /**
   * Plays: a tick advances perTick steps (speed / 30), but no further than
   * the next note, and stays on each note it reaches long enough to read it
   * (the annotations are "steps worth pausing at"), one note at a time.
   * byAutoplay: started by autoplay rather than the reader, it first stays
   * on a note already shown at the start (note=N).
   */
  play(byAutoplay = false): void {
    if (this.playing || !this.view) return;
    this.playing = true;
    this.updatePlay();
    const perTick = Math.max(1, Math.round(this.opts.speed / 30));
    const run = ++this.plays;
    const alive = () => this.playing && run === this.plays;
    const tickMs = (1000 * perTick) / this.opts.speed;
    const tick = async () => {
      if (!alive() || !this.view) return;
      const t0 = performance.now();
      // The engine's and the drawing's time counts in the interval, so the
      // speed asked for is the speed played (240/s played 69/s).
      const next = (ms: number) => (this.playTimer = window.setTimeout(tick, Math.max(ms, tickMs - (performance.now() - t0))));
      const from = this.view.step;
      // Two notes of one step are read one after the other.
      const more = this.notes.sameStepNext(from);
      if (more) {
        this.notes.pin(from, more.index);
        this.schedule();
        return next(more.ms);
      }
      const stop = this.notes.nextStop(from);
      const count = stop === null ? perTick : Math.max(1, Math.min(perTick, stop - from));
      const taken = await this.advance(count, alive);
      if (!alive()) return;
      const hit = taken > 0 && this.view ? await this.notes.reached(from, this.view.step) : null;
      if (!alive()) return;
      if (hit) {
        // A note found only now (anchored to a record of these steps) may
        // lie before the step advanced to: back to it.
        if (this.view && hit.step < this.view.step) await this.seek(hit.step);
        this.notes.pin(hit.step, hit.index);
        this.schedule();
      }
      // The run's end: stop at once (on its last note, if it has one).
      if (taken < count) return this.pause();
      next(hit?.ms ?? 0);
    };
    const first = byAutoplay ? this.notes.hereMs(this.view.step) : 0;
    if (first) this.playTimer = window.setTimeout(tick, first);
    else void tick();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    clearTimeout(this.playTimer);
    this.updatePlay();
    this.schedule(); // the math panel reads back the steps playback passed
  }

  private togglePlay(): void {
    // Not while a note search holds the drawing: it would play on from a step the search only read.
    if (this.held) return;
    this.takeOver();
    if (this.playing) this.pause();
    else this.play();
  }

  /** The reader uses a control: from now on autoplay no longer follows the view. */
  private takeOver(): void {
    this.inView?.disconnect();
    this.inView = null;
  }

  /** Watches the player's visibility for autoplay (null once the reader took over). */
  private inView: IntersectionObserver | null = null;

  private autoplayInView(): void {
    if (typeof IntersectionObserver === 'undefined') return this.play(true);
    this.inView = new IntersectionObserver(
      (entries) => {
        const visible = entries[entries.length - 1]!.isIntersecting;
        if (visible) this.play(true);
        else this.pause();
      },
      { threshold: 0.3 },
    );
    this.inView.observe(this.root);
  }

  private updatePlay(): void {
    const b = this.els.play!;
    setText(b, this.playing ? t('embed.pause') : t('embed.play'));
    b.setAttribute('aria-pressed', String(this.playing));
    // The step label changes many times a second while playing: a screen
    // reader hears it when the run stops, not at every step.
    this.els.label?.setAttribute('aria-live', this.playing ? 'off' : 'polite');
  }

  /** Keys act only while focus is inside the player; handled keys never scroll the host. */
  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || !this.view) return;
    const target = e.composedPath()[0] as HTMLElement | undefined;
    const tag = target?.tagName ?? '';
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.key === 'ArrowRight' || e.key === 'n') {
      e.preventDefault();
      void this.exclusive(() => this.advance(), e.repeat);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      void this.exclusive(() => this.back(), e.repeat);
    } else if (e.key === ' ' && tag !== 'BUTTON' && tag !== 'SUMMARY') {
      // (Space on a button or a folded box's summary is theirs: it presses or opens it.)
      e.preventDefault();
      this.togglePlay();
    } else if ((e.key === 'PageDown' || e.key === 'PageUp') && this.notes.acts()) {
      // A clicker's keys: the next or previous note.
      e.preventDefault();
      const dir = e.key === 'PageDown' ? 1 : -1;
      this.noteMove(() => this.notes.move(dir), e.repeat);
    }
  }

  private async openInApp(e: Event): Promise<void> {
    if (!this.openLink || !this.view) return;
    const a = this.els.open as HTMLAnchorElement;
    if (a.getAttribute('href') !== '#') return; // already resolved: let the click through
    e.preventDefault();
    a.href = await this.openLink(this.source, this.view.step, this.sourceName);
    window.open(a.href, '_blank', 'noopener');
  }

  // ------------------------------------------------------------ render

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Searches under way that hold the drawing (NotesHost.hold): the frame drawn is the one after them. */
  private held = 0;

  private async holding<T>(fn: () => Promise<T>): Promise<T> {
    this.held++;
    try {
      return await fn();
    } finally {
      this.held--;
      this.schedule();
    }
  }

  render(): void {
    const v = this.view;
    if (!v || this.held) return;
    const records = list(v.records);
    this.cluster?.render(v, claimsOf(records), MAX_PODS);
    this.chart?.render(this.samples, v.step);
    if (this.els.math) {
      const from = Math.max(0, this.mathTrail.latest(v.step));
      renderMath(this.els.math, this.mathByStep.get(from) ?? [], from, v.step);
      this.mathTrail.backfill(...this.mathSearch());
    }
    if (this.els.queues) renderQueues(this.els.queues, v);
    if (this.els.expectations) renderExpectations(this.els.expectations, v);
    if (this.els.trace) renderTrace(this.els.trace, this.els.traceLabel!, v);
    this.notes.paint(v);
    const scrub = this.els.scrub as HTMLInputElement;
    scrub.max = String(v.maxStep);
    scrub.value = String(v.step);
    const last = v.lastStep;
    setText(this.els.label!, `${t('embed.stepLabel', { step: v.step, max: this.ended ? v.maxStep : `${v.maxStep}+` })} · ${formatOffset(v.atNs)}${last ? ` · ${last.kind} ${last.component}` : ''}`);
    (this.els.back as HTMLButtonElement).disabled = v.step === 0;
    (this.els.open as HTMLAnchorElement).href = '#';
  }

  /** Stops playing and the engine's Worker (the player left the page). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.aheadTimer);
    this.unobserve?.();
    this.inView?.disconnect();
    this.pause();
    clearTimeout(this.samplesTimer);
    void this.engine.then((e) => e.close?.()).catch(() => {});
  }

  /** The current view (tests). */
  current(): View | null {
    return this.view;
  }
}
