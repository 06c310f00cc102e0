// The stepping UI: holds the current snapshot, calls the engine for every
// control, and coalesces renders into one per animation frame.

import { claimsOf } from '../diff';
import { formatOffset, h, setAttr, setText } from '../dom';
import { createEditor, type EditorHandle, preloadEditor } from '../editor';
import { whenIdle } from '../idle';
import { type EngineClient, lastWorkerMs } from '../engine';
import { commandFor, type Command, keyLabel, SHORTCUTS } from '../keys';
import type { MathBlock } from '../math';
import { MATH_TYPES } from '../math-types';
import { MathTrail } from './mathsearch';
import { t, translated } from '../i18n';
import { loadedStatus, noticeItems } from '../notices';
import { LazyChart } from './lazychart';
import { ClusterPanel, renderExpectations, renderExplanations, renderMath, renderPodLegend, foldLegendInShortWindows, renderQueues, renderSteps, renderTrace, wireRoving } from './panels';
import type { EngineError } from '../result';
import type { LibraryEntry, Sample, Snapshot, StepInfo, TraceRecord, View } from '../types';
import { hasEdits, loadDraft, saveDraft } from '../whatif/persist';
import type { WhatIfRoom } from '../whatif/room';
import type { ForkPlan, ForkRun } from '../share/codec';
import { HistoryComponents } from './history';
import { Deferred, Onscreen } from './onscreen';

/** A scenario annotation as the bridge returns it (engine/scenario Annotation). */
export interface Annotation {
  at: { step?: number; record?: string; nth?: number };
  title: string;
  text?: string;
  /** The title and text in other languages, by language tag (see translated). */
  translations?: Record<string, { title: string; text?: string }>;
  line: number;
}
import { list } from '../types';
import { movedWithPods, podsSince } from '../podlist';

/** Pods listed per view. Listing a pod costs the engine ~15 µs (1,000 pods would blow the 16 ms step budget); ReplicaSets with more pods are drawn from their status counts. */
export const MAX_PODS = 150;
/** The math records of a step without any (one array, so it compares equal). */
const NO_RECORDS: TraceRecord[] = [];
const NO_BLOCKS: MathBlock[] = [];

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
};

/** The app once the engine is ready. */
export class Player {
  private view: View | null = null;
  private samples: Sample[] = [];
  /** The steps computed so far (index = step − 1); holes are steps not fetched yet. */
  private history: (StepInfo | undefined)[] = [];
  /** Math records by step, for steps seen; the math panel falls back to the latest earlier one. Kept as records so a language switch re-renders them. */
  private mathByStep = new Map<number, TraceRecord[]>();
  /** The math records last turned into blocks and those blocks (mathOf), so
   * that steps showing the same decision hand renderMath the same blocks. */
  private mathShown: { records: TraceRecord[]; blocks: MathBlock[] } | null = null;
  /** The steps with math (the keys of mathByStep) and the steps read for math (mathsearch.ts). */
  private readonly mathTrail = new MathTrail();
  /** The components of history, for the step filter (read incrementally). */
  private readonly components = new HistoryComponents();
  /** The components the step filter's options were built from (HistoryComponents gives a new array when they change). */
  private componentOptions: readonly string[] | null = null;
  /** Counts cuts of the history (a load, an action that discarded the future): a steps answer asked for before one is stale. */
  private historyCuts = 0;
  /** How many times the run was cut (a load, or an action that rewrote what followed): a note's placement read before a cut is stale. */
  get cuts(): number {
    return this.historyCuts;
  }
  /**
   * Bumped by every load and every command of the user (steps, seeks,
   * actions): a note search under way (presenter.ts) gives up when it
   * changed, instead of seeking over what the user did.
   */
  generation = 0;
  /** The run's furthest step in the last view applied: when it goes down, an action discarded the future. */
  private knownMaxStep = 0;
  private source = '';
  private sourceName = '';
  private library: LibraryEntry[] = [];
  private editor: EditorHandle | null = null;
  private playing = false;
  /** The run and stop reason last put in the banner ('' when none). */
  private stopShown = '';
  private playTimer = 0;
  private frame = 0;
  private samplesStale = false;
  private samplesTimer = 0;
  private kubectlTimer = 0;
  private busy = false;

  private readonly cluster = new ClusterPanel($('cluster'), $('nodes'));
  /** The replicas chart: its own chunk, loaded after the first step is on screen (see LazyChart). */
  private readonly chart = new LazyChart(
    (m) =>
      new m.ChartPanel($('chart'), $('chart-legend'), (n) => void this.seek(n), () => {
        $<HTMLSelectElement>('chart-zoom').value = this.chart.zoom;
        this.schedule();
      }),
  );
  /** The what-if room: action forms, forks and compare, export (web/src/whatif). */
  /** Loaded after the first step is on screen (its own chunk, off the first-load budget). */
  private whatif: WhatIfRoom | null = null;

  /** Loads and mounts the what-if room. */
  async mountWhatIf(): Promise<void> {
    const { mountWhatIf } = await import('../whatif/room');
    this.whatif = mountWhatIf($('whatif-room'), {
      call: (method, args) => {
        // An action of the room may move the run (advance's take-back must not undo it).
        this.movesAsked++;
        return this.engine.call(method, args);
      },
      source: () => this.source,
      applySnapshot: (s) => {
        this.generation++;
        this.apply(s);
      },
      maxPods: MAX_PODS,
      overlay: (samples, label) => {
        this.chart.setOverlay(samples, label);
        this.schedule();
      },
    });
    if (this.view) this.whatif.update(this.view);
  }
  /**
   * The panels a render may leave for later while they are scrolled out of
   * view (onscreen.ts): each renders the view current when it runs.
   */
  readonly offscreen: Deferred = this.deferPanels();

  private deferPanels(): Deferred {
    const panel = (id: string, render: (v: View) => void) => ({ el: $(id), render: () => this.view && render(this.view) });
    const panels = new Map([
      ['queues', panel('panel-queue', (v) => renderQueues($('queues'), v))],
      ['expectations', panel('panel-exp', (v) => renderExpectations($('expectations'), v))],
      ['trace', panel('panel-trace', (v) => renderTrace($('trace'), $('trace-step'), v))],
      ['steps', panel('panel-steps', (v) => renderSteps($('steps'), this.history, v.step, $<HTMLSelectElement>('filter-component').value, $<HTMLSelectElement>('filter-kind').value, (n) => void this.seek(n)))],
      ['whatif', panel('panel-act', (v) => this.whatif?.update(v))],
    ]);
    return new Deferred(new Onscreen([...panels.values()].map((p) => p.el), () => this.offscreen.flush()), panels);
  }

  /** Called after every render with the view shown (presenter, predict). */
  readonly onRender: ((v: View) => void)[] = [];
  /** Called after every load with the scenario's annotations. */
  readonly onLoad: ((annotations: Annotation[], id: string) => void)[] = [];
  /** Library id of the loaded scenario ('' for edited text). */
  scenarioId = '';
  /** The loaded scenario's annotations (what onLoad was last told). */
  annotations: Annotation[] = [];
  /** Set by predict mode: a render that must not reveal the math yet. */
  holdMath: (v: View) => boolean = () => false;

  constructor(private readonly engine: EngineClient) {
    this.wire();
  }

  // ------------------------------------------------------------ engine calls

  private async call<T>(method: string, args?: unknown): Promise<T | null> {
    const r = await this.engine.call<T>(method, args);
    if (r.ok) return r.value;
    this.showError(r.error, method);
    return null;
  }

  private showError(e: EngineError, method: string): void {
    const text = e.panic ? t('player.panic', { method, message: e.message }) : `${method}: ${e.message}`;
    this.banner(text, e.panic ? 'panic' : 'error');
  }

  banner(text: string, kind: 'panic' | 'error' | 'info'): void {
    const b = $('banner');
    b.dataset.kind = kind;
    setText($('banner-text'), text);
    b.hidden = false;
  }

  /**
   * Loads the default scenario (its source is bundled, so the first step
   * does not wait for the library), then fills the library picker.
   */
  /**
   * Loads the default scenario, then the library; then the editor's draft
   * from last time is loaded if it loads, unless draftStaysUnloaded (the
   * run of this tab comes back instead, and the draft waits in the editor).
   */
  async start(defaultId: string, defaultSource: string, opts: { draftStaysUnloaded?: boolean } = {}): Promise<void> {
    performance.mark('rolloutlab:load-start');
    const loaded = await this.load(defaultSource, `${defaultId}.yaml`);
    performance.mark('rolloutlab:load-end');
    this.render();
    // The DOM of step 0 is complete (it paints in this frame); read by scripts/bench-browser.mjs.
    performance.mark('rolloutlab:first-step-rendered');
    const room = this.mountWhatIf();
    void this.chart.load();
    this.library = (await this.call<LibraryEntry[]>('library')) ?? [];
    await room;
    const picker = $<HTMLSelectElement>('scenario-picker');
    picker.replaceChildren(...this.library.map((e) => h('option', { value: e.id, text: e.name })));
    picker.disabled = false;
    const entry = this.library.find((e) => e.id === defaultId);
    if (entry) {
      picker.value = entry.id;
      this.describe(entry);
    }
    const draft = loadDraft(localStorage);
    if (loaded && draft && draft.text !== this.source && !opts.draftStaysUnloaded) {
      // The scenario that last loaded runs again (the draft was edited from
      // it), so that a draft that does not load leaves that run, not the
      // built-in one, as "the previous simulation".
      if (draft.base && draft.base !== this.source && (await this.load(draft.base, 'scenario.yaml'))) this.showLoaded(draft.base);
      // The editor's text from last time: shown, and loaded if it loads
      // (then folded away); the page's focus stays where it is.
      await this.openEditor(false);
      await this.loadFromEditor();
      setText($('load-status'), `${$('load-status').textContent ?? ''} ${t('player.draftRestored')}`);
    }
    if (!loaded) {
      const first = entry ?? this.library[0];
      if (first) await this.loadEntry(first);
      else this.banner(t('player.libraryEmpty'), 'error');
    }
  }

  /** After the tab's run came back: says that the draft from last time waits in the editor, not loaded. */
  async noteDraftKept(): Promise<void> {
    const draft = loadDraft(localStorage);
    if (!draft || draft.text === this.source) return;
    await this.openEditor(false); // shows the draft; the page's focus stays where it is
    setText($('load-status'), t('player.draftKept'));
  }

  private describe(e: LibraryEntry): void {
    $('scenario-picker').querySelector('option[data-edited]')?.remove();
    this.described = () => setText($('scenario-desc'), translated({ description: e.description || e.name }, e.translations).description);
    this.described();
    setText($('scenario-name'), `— ${e.name}`);
  }

  /** Writes the scenario's description in the current language (relabel calls it again). */
  private described: (() => void) | null = null;

  /** Loads a library scenario by id (presenter reload); false when unknown. */
  async loadById(id: string): Promise<boolean> {
    const e = this.library.find((x) => x.id === id);
    if (!e) return false;
    $<HTMLSelectElement>('scenario-picker').value = id;
    return this.loadEntry(e);
  }

  private async loadEntry(e: LibraryEntry): Promise<boolean> {
    this.describe(e);
    const ok = await this.load(e.source, `${e.id}.yaml`);
    if (ok) this.editor?.setText(e.source);
    if (ok) saveDraft(localStorage, e.source, e.source); // the library text replaced the draft
    return ok;
  }

  /** Loads a scenario; on failure the previous simulation stays and the errors are shown. */
  async load(source: string, name: string): Promise<boolean> {
    this.generation++;
    this.movesAsked++;
    this.pause();
    const r = await this.engine.call<Snapshot>('load', { source, name, maxPods: MAX_PODS });
    const errList = $('load-errors');
    if (!r.ok) {
      const errs = r.error.errors.length ? r.error.errors : [{ doc: 0, line: r.error.line, column: 0, field: r.error.field, message: r.error.message }];
      errList.replaceChildren(
        ...errs.map((e) => {
          const b = h('button', { type: 'button', class: 'err-line', text: `${e.line ? t('player.line', { line: e.line }) : t('player.file')}: ${e.field ? `${e.field}: ` : ''}${e.message}` });
          b.addEventListener('click', () => this.gotoLine(e.line));
          return h('li', { 'data-line': e.line }, b);
        }),
      );
      this.editor?.setErrors(errs.map((e) => ({ line: e.line, column: e.column, message: `${e.field ? `${e.field}: ` : ''}${e.message}` })));
      setText($('load-status'), t('player.notLoaded', { count: errs.length }));
      if (r.error.panic) this.showError(r.error, 'load');
      return false;
    }
    errList.replaceChildren(...noticeItems(r.value.notices ?? [], (l) => this.gotoLine(l)));
    this.editor?.setErrors([]);
    setText($('load-status'), loadedStatus(r.value.view.scenario, r.value.notices ?? []));
    this.whatif?.reset();
    this.source = source;
    this.sourceName = name;
    this.history = [];
    this.historyCuts++;
    this.mathByStep.clear();
    this.mathTrail.clear();
    this.samples = r.value.samples ?? [];
    this.view = null;
    this.scenarioId = name.endsWith('.yaml') && this.library.some((e) => `${e.id}.yaml` === name) ? name.slice(0, -5) : name === 'scenario.yaml' ? '' : name.replace(/\.yaml$/, '');
    this.apply(r.value);
    const anns = (r.value as Snapshot & { annotations?: Annotation[] }).annotations ?? [];
    this.annotations = anns;
    for (const fn of this.onLoad) fn(anns, this.scenarioId);
    return true;
  }

  private apply(s: Snapshot): void {
    const v = s.view;
    this.view = v;
    if (s.steps?.length) {
      for (const st of s.steps) this.setStep(st);
    }
    this.cutHistory(v.maxStep);
    if (s.samples) this.samples = s.samples;
    else if (this.samples.length > v.step + 1 && !s.steps) {
      // an action discarded the old future
      if (v.maxStep === v.step) this.samples.length = v.step + 1;
    } else if (s.steps && s.steps.length === 1 && this.samples.length === v.step) {
      this.samples.push(sampleOf(v));
    } else if (this.samples.length < v.maxStep + 1) this.samplesStale = true;
    const math = list(v.records).filter((r) => MATH_TYPES.includes(r.type));
    if (math.length) this.mathByStep.set(v.step, math);
    this.mathTrail.saw(v.step, math.length > 0);
    this.schedule();
    if (this.history.length < v.maxStep) void this.fetchSteps();
    if (this.samplesStale) this.fetchSamplesSoon();
  }

  /**
   * Forgets every step after n, which the engine no longer has (an action
   * discarded the future): the history, the components read from it and the
   * math records of those steps. Cheap when there is nothing to forget.
   */
  private cutHistory(n: number): void {
    // The run got shorter even when the history held fewer steps (still being fetched).
    const shorter = n < this.knownMaxStep;
    if (shorter) this.historyCuts++;
    this.knownMaxStep = n;
    if (this.history.length > n) {
      this.components.cut(n);
      this.history.length = n;
      this.historyCuts++;
    }
    for (const s of this.mathTrail.cutAbove(n, shorter)) this.mathByStep.delete(s);
  }

  /**
   * Reads back, once the page is idle, the steps since the latest decision
   * known that the view jumped over (a seek, a settle, a drag of the
   * slider), so that the panel shows the latest decision, not an older one
   * or none (MathTrail, latestMath: a run can go thousands of steps without
   * one; each answer stays about the size of a view's records). Not while
   * playing: the panel follows the steps drawn, and reads back what it
   * passed once the run stops (pause renders again). Not before the step
   * shown is fetched (its fetch renders again).
   */
  private backfillMath(): void {
    const at = () => this.view?.step ?? 0;
    this.mathTrail.backfill(
      () => !this.playing && this.history[at() - 1] !== undefined,
      at,
      () => {
        const cuts = this.historyCuts;
        const step = at();
        return {
          call: (args) => this.call('records', args),
          seqs: (st) => this.history[st - 1],
          moved: () => cuts !== this.historyCuts || this.view?.step !== step,
          found: (st, math) => {
            this.mathByStep.set(st, math);
            this.schedule();
          },
        };
      },
    );
  }

  private async fetchSteps(): Promise<void> {
    const cuts = this.historyCuts;
    const more = await this.call<StepInfo[]>('steps', { from: this.history.length + 1 });
    // Steps of a future discarded since (a large answer arrives in chunks, after later calls' answers).
    if (!more || cuts !== this.historyCuts) return;
    for (const st of more) this.setStep(st);
    this.schedule();
  }

  private setStep(st: StepInfo): void {
    this.history[st.step - 1] = st;
    this.components.note(st);
  }

  private fetchSamplesSoon(): void {
    if (this.samplesTimer) return;
    this.samplesTimer = window.setTimeout(() => {
      this.samplesTimer = 0;
      void this.call<Sample[]>('samples').then((s) => {
        if (s) {
          this.samples = s;
          this.samplesStale = false;
          this.schedule();
        }
      });
    }, this.playing ? 500 : 0);
  }

  // ------------------------------------------------------------ controls

  /**
   * Counts what was asked of the engine that moves or replaces the run
   * (advances, seeks, loads, actions): advance asks whether another was
   * asked while its own call ran.
   */
  private movesAsked = 0;

  /**
   * Advances by events, syncs or to the end. wanted, when given, is asked
   * once the engine has answered: false (Pause was pressed while the engine
   * took a tick of playback) keeps the step on screen, where the user
   * paused, and takes the engine back to it, unless another move or a load
   * was asked meanwhile (its answer sets the view). Returns the steps taken
   * and shown.
   */
  async advance(by: 'event' | 'sync' | 'settle', count = 1, wanted?: () => boolean): Promise<number> {
    if (!this.view) return 0;
    const from = this.view.step;
    const asked = ++this.movesAsked;
    const s = await this.moved(await this.call<Snapshot>('advance', { by, count, maxPods: MAX_PODS, ...podsSince(this.view) }));
    if (!s) return 0;
    if (wanted && !wanted()) {
      if (this.movesAsked === asked) await this.seek(from);
      return 0;
    }
    this.apply(s);
    return s.steps?.length ?? 0;
  }

  async seek(step: number): Promise<void> {
    if (!this.view) return;
    this.movesAsked++;
    const s = await this.moved(await this.call<Snapshot>('seek', { step: Math.max(0, step), maxPods: MAX_PODS, ...podsSince(this.view) }));
    if (s) this.apply(s);
  }

  /** The answer to a move with its pods (podlist.ts). */
  private moved(s: Snapshot | null): Promise<Snapshot | null> {
    return movedWithPods(s, () => this.view, () => this.call<Snapshot>('view', { maxPods: MAX_PODS }));
  }

  /** True while the pointer holds the slider: the view does not move its thumb. */
  private dragging = false;
  /** The step the slider asks for and not yet sought (-1: none); scrubbing while a seek runs. */
  private scrubTarget = -1;
  private scrubbing = false;

  /** Seeks to the slider's step, one seek at a time: while one runs, only the latest position asked for is kept. */
  private scrubTo(n: number): void {
    this.generation++;
    this.scrubTarget = n;
    if (this.scrubbing) return;
    this.scrubbing = true;
    void (async () => {
      try {
        while (this.scrubTarget >= 0) {
          const to = this.scrubTarget;
          this.scrubTarget = -1;
          if (to !== this.view?.step) await this.seek(to);
        }
      } finally {
        this.scrubbing = false;
      }
    })();
  }

  /** Performs a user action now (scripts/bench-browser.mjs; the page's forms are in the what-if room). */
  async act(action: { type: string } & Record<string, unknown>): Promise<void> {
    this.generation++;
    this.movesAsked++;
    const s = await this.call<Snapshot>('act', { action, maxPods: MAX_PODS });
    if (s) this.apply(s);
  }

  /**
   * Where playback stops (presenter mode: at each note), or null to play
   * on to the end. A tick advances no further than next(from); reached
   * says whether the steps it took reached a stop (the step, to back up
   * to when a stop found only then lies before where it advanced to).
   * before is asked when Play is pressed: true means it showed something
   * at this step instead (a second note of the same step), and play does
   * not start.
   */
  stops: {
    before(step: number): boolean;
    next(from: number): number | null;
    reached(from: number, to: number): Promise<number | null>;
  } | null = null;

  /** Counts the plays started: a tick of an earlier play (paused and played again while it awaited the engine) stops. */
  private plays = 0;

  play(): void {
    if (this.playing || !this.view) return;
    if (this.stops?.before(this.view.step)) return;
    this.playing = true;
    this.updatePlay();
    const run = ++this.plays;
    const alive = () => this.playing && run === this.plays;
    const tick = async () => {
      if (!alive() || !this.view) return;
      const speed = Number($<HTMLSelectElement>('speed').value) || 5;
      const perTick = Math.max(1, Math.round(speed / 30));
      const t0 = performance.now();
      const from = this.view.step;
      const stop = this.stops?.next(from) ?? null;
      const count = stop === null || stop <= from ? perTick : Math.min(perTick, stop - from);
      const taken = await this.advance('event', count, alive);
      if (!alive()) return;
      if (taken === 0) {
        this.pause();
        return;
      }
      const hit = this.stops && this.view ? await this.stops.reached(from, this.view.step) : null;
      if (!alive()) return;
      if (hit !== null) {
        this.pause();
        if (hit !== this.view?.step) await this.seek(hit);
        return;
      }
      // The engine's time counts in the interval: the speed chosen is the speed played.
      this.playTimer = window.setTimeout(tick, Math.max(0, (1000 * perTick) / speed - (performance.now() - t0)));
    };
    void tick();
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    clearTimeout(this.playTimer);
    this.updatePlay();
    this.fetchSamplesSoon();
    this.schedule();
  }

  /** True while the run plays. */
  isPlaying(): boolean {
    return this.playing;
  }

  /**
   * Extra key groups listed first in the help overlay (presenter mode's
   * remote); null for none. Set it, then call renderHelp.
   */
  helpFirst: (() => { heading: string; keys: { keys: string[]; label: string }[] }) | null = null;

  private updatePlay(): void {
    const b = $('play-btn');
    setText(b, this.playing ? t('player.pause') : t('player.play'));
    b.setAttribute('aria-pressed', String(this.playing));
  }

  async reset(): Promise<void> {
    if (this.source) await this.load(this.source, this.sourceName);
  }

  /** Runs a keyboard command. Serialises engine work so held keys do not pile up. */
  async run(cmd: Command): Promise<void> {
    if (cmd === 'help') return void ($<HTMLDialogElement>('help').open ? undefined : $<HTMLDialogElement>('help').showModal());
    if (cmd === 'closeOverlay') {
      const d = $<HTMLDialogElement>('help');
      if (d.open) d.close();
      return;
    }
    this.generation++;
    if (cmd === 'togglePlay') return void (this.playing ? this.pause() : this.play());
    if (this.busy) return;
    this.busy = true;
    try {
      if (cmd !== 'stepEvent') this.pause();
      switch (cmd) {
        case 'stepEvent':
          await this.advance('event');
          break;
        case 'stepSync':
          await this.advance('sync');
          break;
        case 'settle':
          await this.advance('settle');
          break;
        case 'back':
          if (this.view && this.view.step > 0) await this.seek(this.view.step - 1);
          break;
        case 'first':
          await this.seek(0);
          break;
        case 'last':
          if (this.view) await this.seek(this.view.maxStep);
          break;
        case 'reset':
          await this.reset();
          break;
      }
    } finally {
      this.busy = false;
    }
  }

  // ------------------------------------------------------------ rendering

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /**
   * mathOf(records), the same blocks while the records are the same; null
   * while the formatting code (math.ts, a chunk of its own: the first load's
   * budget is full) is still loading, which loadMath starts once the first
   * step is on screen and which renders again when it arrives.
   */
  private mathBlocks(records: TraceRecord[]): MathBlock[] | null {
    if (records.length === 0) return NO_BLOCKS;
    if (!this.mathOf) {
      this.loadMath();
      return null;
    }
    if (this.mathShown?.records !== records) this.mathShown = { records, blocks: this.mathOf(records) };
    return this.mathShown.blocks;
  }

  /** math.ts's mathOf, once its chunk has loaded. */
  private mathOf: ((records: readonly TraceRecord[]) => MathBlock[]) | null = null;
  private mathLoading = false;

  /** Loads math.ts (once; again after a failure) and renders with it. */
  loadMath(): void {
    if (this.mathOf || this.mathLoading) return;
    this.mathLoading = true;
    import('../math').then(
      (m) => {
        this.mathOf = m.mathOf;
        this.mathLoading = false;
        this.schedule();
      },
      () => {
        this.mathLoading = false;
      },
    );
  }

  /** Searches under way that hold the drawing (hold): nothing is drawn until the last one ends. */
  private held = 0;

  /**
   * Runs fn with the drawing held, then draws: a search for a note not
   * placed yet goes through steps the reader should not see (the notes'
   * strip says it is looking meanwhile).
   */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    this.held++;
    try {
      return await fn();
    } finally {
      this.held--;
      if (this.held === 0) this.schedule();
    }
  }

  /** Renders the current view now (bench and tests call this directly); nothing while the drawing is held. */
  render(): void {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    const v = this.view;
    if (!v || this.held > 0) return;
    const records = list(v.records);
    this.cluster.render(v, claimsOf(records), MAX_PODS);
    // Queues, expectations, trace, timeline and what-if forms: now if in view, soon otherwise.
    this.offscreen.render();
    this.backfillMath();
    const from = Math.max(0, this.mathTrail.latest(v.step));
    const blocks = this.holdMath(v) ? null : this.mathBlocks(this.mathByStep.get(from) ?? NO_RECORDS);
    // Held (predict mode), or math.ts still loading: nothing rather than another step's math.
    if (blocks) renderMath($('math'), blocks, from, v.step);
    else $('math').replaceChildren();
    if (this.chart.zoom === 'action') {
      // Only this zoom reads it: the latest action, found from the end.
      let i = this.history.length - 1;
      while (i >= 0 && this.history[i]?.kind !== 'action') i--;
      this.chart.lastActionStep = i >= 0 ? this.history[i]!.step : 0;
    }
    this.chart.render(this.samples, v.step);
    this.renderControls(v);
    this.kubectlSoon();
    for (const fn of this.onRender) fn(v);
  }

  private renderControls(v: View): void {
    const scrub = $<HTMLInputElement>('scrubber');
    scrub.max = String(v.maxStep);
    if (!this.dragging) scrub.value = String(v.step);
    scrub.setAttribute('aria-valuetext', t('player.scrubberValue', { step: v.step, max: v.maxStep }));
    const last = v.lastStep;
    // Two outputs: the step counter (fixed width, never wraps) and what the
    // step was (ellipsised), so the controls keep their size while stepping.
    setText($('step-label'), `${t('player.stepLabel', { step: v.step, max: v.maxStep })} · ${formatOffset(v.atNs)}`);
    const what = `${last ? `${last.kind} ${last.component}${last.key ? ` ${last.key}` : ''}` : ''}${v.idle ? ` · ${t('player.idle')}` : ''}${v.stopped ? ` · ${t('player.stopped', { why: v.stopped })}` : ''}`;
    setText($('step-what'), what);
    setAttr($('step-what'), 'title', what);
    // A run that stopped (a limit) says why in a banner, as the controls cut
    // the reason short: once per run, not at every return to its end.
    const stop = v.stopped ? `${this.historyCuts}|${v.stopped}` : '';
    if (stop && stop !== this.stopShown) {
      this.banner(t('player.stoppedBanner', { step: v.maxStep, why: v.stopped! }), 'error');
      this.stopShown = stop;
    }
    $<HTMLButtonElement>('back-btn').disabled = v.step === 0;
    // component filter options and action targets follow the run
    const comp = $<HTMLSelectElement>('filter-component');
    const comps = this.components.update(this.history);
    if (comps !== this.componentOptions) {
      this.componentOptions = comps;
      const cur = comp.value;
      comp.replaceChildren(h('option', { value: '', text: t('player.all') }), ...comps.map((c) => h('option', { value: c, text: c })));
      comp.value = comps.includes(cur) ? cur : '';
    }
    const kc = $<HTMLSelectElement>('kubectl-cmd');
    const cmds = kubectlCommands(v);
    if ([...kc.options].map((o) => o.value).join('\n') !== cmds.join('\n')) {
      const cur = kc.value;
      kc.replaceChildren(...cmds.map((c) => h('option', { value: c, text: `kubectl ${c}` })));
      kc.value = cmds.includes(cur) ? cur : cmds[0]!;
    }
  }

  private kubectlSoon(): void {
    if (this.kubectlTimer) return;
    this.kubectlTimer = window.setTimeout(() => {
      this.kubectlTimer = 0;
      void this.refreshKubectl();
    }, this.playing ? 400 : 30);
  }

  private async refreshKubectl(): Promise<void> {
    const cmd = $<HTMLSelectElement>('kubectl-cmd').value;
    if (!cmd || !this.view) return;
    const r = await this.engine.call<{ output: string }>('kubectl', { command: cmd });
    setText($('kubectl-out'), r.ok ? r.value.output : `error: ${r.error.message}`);
  }

  // ------------------------------------------------------------ wiring

  private wire(): void {
    const on = (id: string, ev: string, fn: (e: Event) => void) => $(id).addEventListener(ev, fn);
    on('step-btn', 'click', () => void this.run('stepEvent'));
    on('sync-btn', 'click', () => void this.run('stepSync'));
    on('settle-btn', 'click', () => void this.run('settle'));
    on('back-btn', 'click', () => void this.run('back'));
    on('play-btn', 'click', () => void this.run('togglePlay'));
    on('reset-btn', 'click', () => void this.run('reset'));
    // Dragging the slider shows the steps it passes (one seek at a time,
    // to the latest position); letting go seeks to where it stopped.
    on('scrubber', 'input', (e) => this.scrubTo(Number((e.target as HTMLInputElement).value)));
    on('scrubber', 'pointerdown', () => (this.dragging = true));
    for (const ev of ['pointerup', 'pointercancel']) window.addEventListener(ev, () => (this.dragging = false));
    on('scrubber', 'change', (e) => {
      this.dragging = false;
      this.scrubTo(Number((e.target as HTMLInputElement).value));
    });
    on('filter-component', 'change', () => this.schedule());
    on('filter-kind', 'change', () => this.schedule());
    on('chart-axis', 'change', (e) => {
      this.chart.axis = (e.target as HTMLSelectElement).value === 'time' ? 'time' : 'step';
      this.chart.range = null;
      this.schedule();
    });
    on('chart-zoom', 'change', (e) => {
      this.chart.zoom = (e.target as HTMLSelectElement).value === 'action' ? 'action' : 'all';
      this.chart.range = null;
      this.schedule();
    });
    wireRoving($('steps'), '.step-row');
    wireRoving($('trace'), 'summary');
    renderPodLegend($('pod-legend'));
    foldLegendInShortWindows($('pod-legend-fold') as HTMLDetailsElement);
    for (const d of document.querySelectorAll<HTMLDetailsElement>('.explain[data-explain]')) {
      d.addEventListener('toggle', () => {
        if (d.open) void this.loadExplanations();
      });
    }
    on('kubectl-cmd', 'change', () => void this.refreshKubectl());
    on('banner-close', 'click', () => ($('banner').hidden = true));
    on('scenario-picker', 'change', (e) => {
      const id = (e.target as HTMLSelectElement).value;
      const entry = this.library.find((x) => x.id === id);
      if (entry && hasEdits(this.editor?.getText() ?? loadDraft(localStorage)?.text ?? null, this.source) && !confirm(t('player.confirmReplace', { name: entry.name }))) {
        (e.target as HTMLSelectElement).value = this.library.find((x) => `${x.id}.yaml` === this.sourceName)?.id ?? '';
        return;
      }
      if (entry) void this.loadEntry(entry);
    });
    on('edit-btn', 'click', () => void this.toggleEditor());
    on('load-btn', 'click', () => void this.loadFromEditor());
    on('unfold-btn', 'click', () => {
      this.foldEditor(false);
      this.editor?.focus();
    });
    document.addEventListener('keydown', (e) => {
      const t = e.target as HTMLElement | null;
      const cmd = commandFor({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        targetTag: t?.tagName ?? 'BODY',
        targetEditable: !!t?.isContentEditable,
        targetType: (t as HTMLInputElement | null)?.type ?? '',
      });
      if (!cmd) return;
      if ((cmd === 'back' || cmd === 'stepEvent') && t?.tagName === 'INPUT') return;
      if (cmd === 'closeOverlay' && !$<HTMLDialogElement>('help').open) return;
      e.preventDefault();
      void this.run(cmd);
    });
    this.renderHelp();
    on('help-btn', 'click', () => void this.run('help'));
    for (const id of ['step-btn', 'sync-btn', 'settle-btn', 'play-btn', 'reset-btn', 'scrubber']) ($(id) as HTMLButtonElement).disabled = false;
    this.updatePlay();
  }

  /** Edit YAML: shows the editor (unfolding it after a load), or hides the panel when the editor shows. */
  private async toggleEditor(): Promise<void> {
    const panel = $('editor-panel');
    if (!panel.hidden && !panel.classList.contains('folded')) {
      panel.hidden = true;
      this.foldEditor(false);
      return;
    }
    await this.openEditor(true);
  }

  /** Shows the editor panel unfolded, creating the editor the first time; focus moves to it when asked. */
  private async openEditor(focus: boolean): Promise<void> {
    const panel = $('editor-panel');
    panel.hidden = false;
    this.foldEditor(false);
    // One editor, however many calls arrive while its code loads.
    this.editorMade ??= (async () => {
      setText($('load-status'), t('player.loadingEditor'));
      // The text survives a reload and a failed load (web/src/whatif/persist.ts).
      this.editor = await createEditor(
        $('editor-host'),
        loadDraft(localStorage)?.text ?? this.source,
        () => void this.loadFromEditor(),
        () => this.editor && saveDraft(localStorage, this.editor.getText(), this.source),
      );
      setText($('load-status'), '');
    })().catch((e: unknown) => {
      this.editorMade = null; // a failed chunk load can be tried again
      throw e;
    });
    await this.editorMade;
    if (focus) this.editor?.focus();
  }

  /** The editor's creation, started by the first openEditor. */
  private editorMade: Promise<void> | null = null;

  /**
   * Folds the editor away (folded) or shows it again. After a load from the
   * editor succeeds the text has done its work and, at 1280x720, would keep
   * the cluster below the fold; the load status and the notices stay, with
   * a button that shows the editor again. A failed load keeps the editor
   * open at its errors.
   */
  private foldEditor(folded: boolean): void {
    const panel = $('editor-panel');
    const hadFocus = folded && panel.contains(document.activeElement);
    panel.classList.toggle('folded', folded);
    $('unfold-btn').hidden = !folded;
    $('edit-btn').setAttribute('aria-expanded', String(!panel.hidden && !folded));
    if (hadFocus) $('unfold-btn').focus(); // focus was in the editor (Ctrl+Enter): keep it in the panel
  }

  /** Shows the editor at a line an error or notice names. */
  private gotoLine(line: number): void {
    this.foldEditor(false);
    this.editor?.gotoLine(line);
  }

  private async loadFromEditor(): Promise<void> {
    if (!this.editor) return;
    const text = this.editor.getText();
    if (!(await this.load(text, 'scenario.yaml')) || !this.view) return;
    this.foldEditor(true);
    this.showLoaded(text);
  }

  /**
   * Makes the picker and the title follow what was loaded (from the editor,
   * or a shared link, such as an embedded player's "Open in Rollout Lab"):
   * the library entry when the text is one, else the scenario under its own
   * name.
   */
  showLoaded(text: string): void {
    if (!this.view) return;
    const picker = $<HTMLSelectElement>('scenario-picker');
    const entry = this.library.find((e) => e.source === text);
    if (entry) {
      picker.value = entry.id;
      this.describe(entry);
      return;
    }
    const name = this.view.scenario;
    picker.querySelector('option[data-edited]')?.remove();
    picker.prepend(h('option', { value: '', 'data-edited': '', text: t('player.editedOption', { name }) }));
    picker.value = '';
    setText($('scenario-name'), `— ${name}`);
    this.described = () => setText($('scenario-desc'), t('player.editedDesc', { name }));
    this.described();
  }

  /** Whether the panels' explanations (their English text is a lazy chunk) have been loaded and filled in. */
  private explanationsLoaded = false;

  /** Loads the explanations' text the first time a "What am I looking at?" box opens, and fills every box. */
  private async loadExplanations(): Promise<void> {
    if (this.explanationsLoaded) return;
    await import('../i18n/explain');
    this.explanationsLoaded = true;
    renderExplanations();
  }

  /** Starts fetching CodeMirror, and the math panel's formatting, when the browser is idle. */
  preloadEditorWhenIdle(): void {
    whenIdle(() => {
      this.loadMath();
      void preloadEditor();
    });
  }

  /**
   * For scripts/bench-browser.mjs and e2e: one event step, rendered synchronously with what its frame would do
   * (the chart's lines, which a render leaves for the next animation frame) and the style and layout it needs
   * (forced by reading the layout); returns ms. Painting is not included.
   */
  async benchStep(): Promise<number> {
    const t0 = performance.now();
    const n = await this.advance('event');
    this.render();
    this.chart.flush();
    void document.documentElement.getBoundingClientRect().height;
    return n === 0 ? -1 : performance.now() - t0;
  }

  /** Redraws everything that holds translated text (after a language switch). */
  relabel(): void {
    this.mathShown = null; // the blocks hold translated text
    this.renderHelp();
    renderPodLegend($('pod-legend'));
    if (this.explanationsLoaded) renderExplanations();
    this.updatePlay();
    delete $('steps').dataset.sig;
    $('filter-component').replaceChildren(h('option', { value: '', text: t('player.all') }));
    this.componentOptions = null;
    this.cluster.relabel();
    this.described?.();
    this.render();
  }

  /** Fills the help overlay: helpFirst's keys (presenter mode) before the player's. */
  renderHelp(): void {
    const row = (keys: string[], label: string) => [h('dt', {}, ...keys.map((k) => h('kbd', { text: keyLabel(k) }))), h('dd', { text: label })];
    // Built at each rendering: a language switch renders the help again.
    const first = this.helpFirst?.();
    const player = h('dl', {}, ...SHORTCUTS.flatMap((s) => row(s.keys, t(s.label))), ...row(['Ctrl+Enter'], t('keys.loadYaml')), ...(first ? [] : row(['PageDown', 'PageUp'], t('keys.present'))));
    $('help-keys').replaceChildren(
      ...(first ? [h('h3', { text: first.heading }), h('dl', {}, ...first.keys.flatMap((k) => row(k.keys, k.label))), h('h3', { text: t('keys.everywhere') })] : []),
      player,
    );
  }

  /** The source text of the loaded scenario. */
  sourceText(): string {
    return this.source;
  }

  /** The steps computed so far (index = step − 1; a hole is a step not fetched yet). */
  steps(): readonly (StepInfo | undefined)[] {
    return this.history;
  }

  /** Calls the engine directly (presenter: records of the run). */
  engineCall<T>(method: string, args?: unknown): Promise<T | null> {
    return this.call<T>(method, args);
  }

  /** The Worker's time in ms for the last call of a bridge method (scripts/bench-browser.mjs: engine vs page). */
  workerMs(method: string): number | undefined {
    return lastWorkerMs.get(method);
  }

  /** The current view (for tests). */
  current(): View | null {
    return this.view;
  }

  /** The What if? comparison on screen, for a share link (null when none is shown). */
  forkPlan(): ForkPlan<ForkRun> | null {
    return this.whatif?.plan() ?? null;
  }

  /** Forks one run of a shared comparison again (web/src/share/restore.ts); resolves to whether it was made. */
  async restoreFork(atStep: number, run: ForkRun, add: boolean): Promise<boolean> {
    return this.whatif ? this.whatif.restoreRun(atStep, run, add) : false;
  }
}

/** ` -n NS` for an object outside the default namespace, as kubectl needs it. */
const nsFlag = (ns: string): string => (ns && ns !== 'default' ? ` -n ${ns}` : '');

/**
 * The kubectl panel's commands for a view: the lists in the namespace the
 * objects are in (`-A` when they span several), and per object its own `-n`.
 */
export function kubectlCommands(v: View): string[] {
  const namespaces = [...new Set([...list(v.deployments), ...list(v.replicaSets)].map((o) => o.namespace || 'default'))];
  const where = namespaces.length > 1 ? ' -A' : nsFlag(namespaces[0] ?? '');
  const cmds = ['deploy', 'rs', 'pods'].map((k) => `get ${k} -o wide${where}`);
  for (const d of list(v.deployments)) {
    const n = nsFlag(d.namespace);
    cmds.push(`describe deployment ${d.name}${n}`, `rollout status deployment/${d.name}${n}`, `rollout history deployment/${d.name}${n}`);
  }
  for (const r of list(v.replicaSets)) cmds.push(`describe rs ${r.name}${nsFlag(r.namespace)}`);
  return cmds;
}

/** A chart sample read from a view (the same numbers the engine samples). */
export function sampleOf(v: View): Sample {
  return {
    step: v.step,
    atNs: v.atNs,
    replicaSets: list(v.replicaSets)
      .map((r) => ({ name: r.name, ...(r.owner ? { owner: r.owner } : {}), desired: r.desired, current: r.current, ready: r.ready, available: r.available }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    deployments: list(v.deployments).map((d) => ({ name: d.name, replicas: d.replicas, updated: d.status.updated, available: d.status.available })),
  };
}

/** The player under its former name. */
export { Player as App };
