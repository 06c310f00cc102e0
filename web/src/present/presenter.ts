// Presenter mode: large type, only the panels chosen for presenting, the
// scenario's annotations shown when reached, next/previous note, and a
// keyboard remote (Space/→ next sync, ← previous sync, PageDown/PageUp next/
// previous note for clickers, Esc exits). Survives a reload at the same step:
// the scenario and step are kept in sessionStorage.
//
// Outside presenter mode the same notes are a strip above the panels (with
// next/previous note, and a fold that is remembered), once a scenario with
// notes is loaded: a learner who follows "Open in Rollout Lab" from a docs
// page, or opens the app on its default scenario, reads the story too.
import { setAttr, setText } from '../dom';
import { PressQueue } from '../keys';
import { t, translated } from '../i18n';
import '../i18n/present-modes';
import { Layout } from '../player/layout';
import type { Annotation, Player } from '../player/player';
import type { TraceRecord, View } from '../types';
import { addRecords, edgeNoteAt, nearestNoteStep, type PinnedNote, type RecordSteps, sameStepNote, shownNote, stepsOf } from './annotations';
import { PRESENT_STATE as STATE } from './state';
/** Syncs tried while looking for a note beyond the computed run. */
const SEARCH_SYNCS = 60;
/** Steps computed per engine call on the way to a {step} note beyond the computed run. */
const AHEAD_CHUNK = 2000;
/** localStorage: '1' when the notes strip outside presenter mode is folded. */
const FOLDED = 'rolloutlab-notes-folded';

/** What survives a reload. */
export interface PresentState {
  /** Library id, or '' for edited text (then source holds it). */
  id: string;
  step: number;
  source?: string;
}

/** Reads the saved presenter state (null when none or unreadable). */
export function readState(raw: string | null): PresentState | null {
  try {
    const v = raw ? (JSON.parse(raw) as Partial<PresentState>) : null;
    if (!v || typeof v.id !== 'string' || typeof v.step !== 'number' || v.step < 0) return null;
    return typeof v.source === 'string' ? { id: v.id, step: Math.floor(v.step), source: v.source } : { id: v.id, step: Math.floor(v.step) };
  } catch {
    return null;
  }
}

export class Presenter {
  on = false;
  private anns: Annotation[] = [];
  private seen: RecordSteps = new Map();
  private scannedSeq = 0;
  /** Key presses, one at a time; those queued before leaving presenter mode are dropped with it. */
  private readonly presses = new PressQueue(3, () => this.on);
  /** The note a note move chose at its step (one of several there), while that step is shown. */
  private pinned: PinnedNote | null = null;
  /** Where the last search for a note not placed yet gave up (the end of what it computed): steps before it are not searched again. */
  private searchedTo = -1;
  /** The run's last step once a move learnt that it ends before a {step} note (which is then not in the run); null until then. */
  private runEnd: number | null = null;
  /** A message about a note move that found nothing, shown while the step it was asked at is. */
  private flash: { step: number; text: string } | null = null;
  private readonly layout = new Layout('rolloutlab-present-panels', document.getElementById('panels-list'));
  /** Whether the strip outside presenter mode shows only its row (FOLDED). */
  private folded = readFolded();
  /** The player's cuts when the notes were last placed (a cut makes their placement stale). */
  private cutsSeen = 0;
  /** Outside presenter mode, the furthest step whose records were read: the strip scans only past it. */
  private stripScanned = -1;
  /** The note moves, one after another (buttons and keys). */
  private moving: Promise<unknown> = Promise.resolve();

  constructor(private readonly player: Player, private readonly normal: Layout) {
    // Presenter mode loads on first use, after the scenario did.
    this.anns = player.annotations;
    if (!localStorage.getItem('rolloutlab-present-panels')) {
      this.layout.state = this.layout.state.map((s) => ({ ...s, shown: s.id === 'cluster' || s.id === 'math' || s.id === 'chart' }));
    }
    player.onLoad.push((anns) => {
      this.anns = anns;
      this.forgetPlaces();
    });
    this.cutsSeen = player.cuts;
    player.onRender.push((v) => this.render(v));
    const on = (id: string, fn: () => void) => document.getElementById(id)?.addEventListener('click', fn);
    on('present-btn', () => (this.on ? this.exit() : this.enter()));
    on('present-exit', () => this.exit());
    on('ann-next', () => void this.note(1));
    on('ann-prev', () => void this.note(-1));
    on('ann-fold', () => this.fold(!this.folded));
    document.addEventListener('keydown', (e) => this.key(e), true);
    // The hero panels fill the window below the strip (style.css: --notes-h).
    const box = document.getElementById('annotation')!;
    new ResizeObserver(() => this.stripHeight(box)).observe(box);
    // Loaded for the strip (main.ts): show it at once.
    const v = player.current();
    if (v) this.render(v);
  }

  /**
   * Tells style.css how much of the window the strip takes outside
   * presenter mode (--notes-h, with the gap below it), so that the cluster
   * and math panels still end at the window's bottom edge; presenter mode
   * makes room for its notes itself.
   */
  private stripHeight(box: HTMLElement): void {
    const h = this.on || box.hidden ? 0 : box.offsetHeight;
    document.documentElement.style.setProperty('--notes-h', h ? `calc(${h}px + 0.4rem)` : '0px');
  }

  /** Folds the strip outside presenter mode to its row, or unfolds it; remembered. */
  private fold(folded: boolean): void {
    this.folded = folded;
    try {
      if (folded) localStorage.setItem(FOLDED, '1');
      else localStorage.removeItem(FOLDED);
    } catch {
      /* storage blocked: folded for this page only */
    }
    const v = this.player.current();
    if (v) this.render(v);
  }

  enter(): void {
    this.on = true;
    document.documentElement.classList.add('present');
    // Announced while presenting only: outside it the strip's notes would
    // be read out over the step label whenever playback crossed one.
    const box = document.getElementById('annotation')!;
    box.setAttribute('aria-live', 'polite');
    this.stripHeight(box);
    document.getElementById('present-btn')?.setAttribute('aria-pressed', 'true');
    this.player.stops = this.stops;
    this.player.helpFirst = () => ({
      heading: t('keys.presenterHeading'),
      keys: [
        { keys: [' ', 'ArrowRight'], label: t('keys.presentNext') },
        { keys: ['ArrowLeft'], label: t('keys.presentBack') },
        { keys: ['PageDown', 'PageUp'], label: t('keys.presentNote') },
        { keys: ['Escape'], label: t('keys.presentExit') },
      ],
    });
    this.player.renderHelp();
    this.layout.apply();
    this.player.render();
  }

  exit(): void {
    this.on = false;
    document.documentElement.classList.remove('present');
    document.getElementById('present-btn')?.setAttribute('aria-pressed', 'false');
    this.player.stops = null;
    sessionStorage.removeItem(STATE);
    this.player.helpFirst = null;
    this.player.renderHelp();
    this.normal.apply();
    const box = document.getElementById('annotation')!;
    box.removeAttribute('aria-live');
    // The notes stay, as the strip (or hidden when the scenario has none).
    const v = this.player.current();
    if (v) this.render(v);
    this.stripHeight(box);
  }

  /** Forgets where the notes fall: a load, or a cut of the run (an action that rewrote what followed) made it stale. */
  private forgetPlaces(): void {
    this.seen = new Map();
    this.scannedSeq = 0;
    this.pinned = null;
    this.searchedTo = -1;
    this.runEnd = null;
    this.stripScanned = -1;
    this.cutsSeen = this.player.cuts;
  }

  /** forgetPlaces once the player's run was cut since the notes were placed. */
  private syncCuts(): void {
    if (this.player.cuts !== this.cutsSeen) this.forgetPlaces();
  }

  /** Restores a presentation saved before a reload. */
  async restore(): Promise<boolean> {
    const st = readState(sessionStorage.getItem(STATE));
    const asked = new URLSearchParams(location.search).has('present');
    if (!st && !asked) return false;
    this.enter();
    if (st) {
      if (st.id && st.id !== this.player.scenarioId) await this.player.loadById(st.id);
      else if (!st.id && st.source) await this.player.load(st.source, 'scenario.yaml');
      if (st.step > 0) await this.player.seek(st.step);
    }
    return true;
  }

  private key(e: KeyboardEvent): void {
    if (!this.on || e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.target as HTMLElement | null;
    // A field keeps its keys; a select, the slider or a checkbox keeps all
    // but a clicker's page keys, which go to the notes wherever the focus is.
    const page = e.key === 'PageDown' || e.key === 'PageUp';
    if (typingTarget(tgt) && !(page && tgt?.tagName === 'SELECT')) return;
    if (tgt?.tagName === 'INPUT' && inputKeeps(tgt as HTMLInputElement, e.key)) return;
    let act: (() => Promise<void>) | null = null;
    // A clicker has only these two keys: with no note left that way they
    // step by sync, so a scenario without notes can be presented with it.
    // (Not after a note move the user's own move cut short.)
    if (e.key === 'PageDown') act = () => this.noteOr(1, () => this.player.advance('sync'));
    else if (e.key === 'PageUp') act = () => this.noteOr(-1, () => this.backSync());
    else if (e.key === ' ' && this.player.isPlaying()) act = async () => this.player.pause();
    else if (e.key === ' ' || e.key === 'ArrowRight') act = async () => void (await this.player.advance('sync'));
    else if (e.key === 'ArrowLeft') act = () => this.backSync();
    else if (e.key === 'Escape' && !(document.getElementById('help') as HTMLDialogElement).open) {
      // Never queued nor dropped: leaving wins over presses still waiting.
      e.preventDefault();
      e.stopImmediatePropagation();
      this.presses.clear();
      this.exit();
      return;
    }
    if (!act) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    void this.presses.push(act, e.repeat);
  }

  /** A clicker's press: the next (previous) note, or else a sync, unless the user moved the player meanwhile. */
  private async noteOr(dir: 1 | -1, otherwise: () => Promise<unknown>): Promise<void> {
    const gen = this.player.generation;
    if (!(await this.note(dir)) && this.player.generation === gen) await otherwise();
  }

  /** The step of each note, null for one not placed yet and for a {step} note past the run's end. */
  private placed(): (number | null)[] {
    return stepsOf(this.anns, this.seen, this.runEnd);
  }

  /** The note shown at step: the one a note move chose there, else noteAt's. */
  private shownIndex(steps: readonly (number | null)[], step: number): number {
    return shownNote(steps, step, this.pinned);
  }

  private async backSync(): Promise<void> {
    const v = this.player.current();
    if (!v || v.step === 0) return;
    const steps = this.player.steps();
    let to = 0;
    for (let i = v.step - 2; i >= 0; i--) {
      if (steps[i]?.kind === 'sync') {
        to = i + 1;
        break;
      }
    }
    await this.player.seek(to);
  }

  /** The scans under way, one after another: two at once read the same records and counted them twice. */
  private scanning: Promise<void> = Promise.resolve();

  /** Reads the decision records computed since the last scan. */
  private scan(): Promise<void> {
    this.scanning = this.scanning.then(() => this.scanOnce(), () => this.scanOnce());
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    for (let i = 0; i < 50; i++) {
      const r = await this.player.engineCall<{ records: TraceRecord[] | null; total: number }>('records', { from: this.scannedSeq + 1, kinds: ['decision'], limit: 500 });
      const recs = r?.records ?? [];
      if (recs.length === 0) return;
      addRecords(this.seen, recs);
      this.scannedSeq = recs[recs.length - 1]!.seq;
      if (recs.length < 500) return;
    }
  }

  /**
   * Goes to the next (dir 1) or previous (−1) note, computing the run
   * further when a note is not found yet (one whose step depends on a
   * record). When none is found, the view stays where it was and says so.
   * Several notes at one step are moved through one at a time. Reports
   * whether it moved. The player's drawing is held meanwhile: the reader
   * sees the note's step, not the steps a search goes through.
   */
  note(dir: 1 | -1): Promise<boolean> {
    const move = this.moving.then(() => this.player.hold(() => this.noteHeld(dir)));
    this.moving = move.catch(() => {});
    return move;
  }

  private async noteHeld(dir: 1 | -1): Promise<boolean> {
    if (this.anns.length === 0) return false;
    this.syncCuts();
    this.player.pause();
    const v = this.player.current();
    if (!v) return false;
    // The user's own moves (and a load) win: a search that sees one gives up.
    const gen = this.player.generation;
    const stale = () => this.player.generation !== gen;
    this.flash = null;
    await this.scan();
    if (stale()) return false;
    const here = this.placed();
    const shown = this.shownIndex(here, v.step);
    const same = here[shown] === v.step ? sameStepNote(here, shown, dir) : -1;
    if (same >= 0) {
      this.pinned = { step: v.step, index: same };
      this.paint(v);
      return true;
    }
    const pick = () => nearestNoteStep(this.placed(), v.step, dir);
    let to = pick();
    // A {step} note past the part of the run computed: compute up to it
    // first. One the run ends before is not in it (seeking there was an
    // error, and the clicker's press did nothing).
    // In chunks, saying so: a note may be far ahead (up to the run's step limit).
    if (dir > 0 && to !== null && to > v.maxStep) {
      setText(document.getElementById('ann-count')!, t('present.searching'));
      for (let max = v.maxStep; to !== null && to > max; ) {
        const r = await this.player.engineCall<{ maxStep: number; ended: boolean }>('ahead', { steps: Math.min(AHEAD_CHUNK, to - max) });
        if (stale()) return false;
        if (!r || r.maxStep <= max) {
          // The run ends (or the engine failed) before the note: it is not in this run.
          if (r?.ended) this.runEnd = r.maxStep;
          to = pick();
          break;
        }
        max = r.maxStep;
        if (r.ended && max < to) {
          this.runEnd = max;
          to = pick();
        }
      }
    }
    if (to === null && dir > 0) {
      // Only a note not placed yet can lie ahead; with every note placed
      // there is nothing to look for.
      // A search that gave up covers what it computed: the next presses in
      // that stretch do not search it again (each search is up to 300 syncs).
      if (stepsOf(this.anns, this.seen).some((s) => s === null) && v.step >= this.searchedTo) {
        setText(document.getElementById('ann-count')!, t('present.searching'));
        for (let i = 0; i < SEARCH_SYNCS && to === null; i++) {
          const before = this.player.current()?.maxStep ?? 0;
          await this.player.seek(before);
          if (stale()) return false;
          if ((await this.player.advance('sync', 5)) === 0) break;
          await this.scan();
          if (stale()) return false;
          to = pick();
        }
      }
      if (to === null) {
        this.searchedTo = Math.max(this.searchedTo, this.player.current()?.maxStep ?? 0);
        // Back where the presenter was: the search only computed the run.
        if (stale()) return false;
        if (this.player.current()?.step !== v.step) await this.player.seek(v.step);
        this.flash = { step: v.step, text: t('present.notFound') };
        const now = this.player.current();
        if (now) this.paint(now);
        return false;
      }
    }
    if (to === null) return false;
    // A {step} note is known before the run reaches it; a {record} note is
    // found only once computed. Compute up to the candidate, then pick again
    // so that a record note before it is not skipped.
    if (dir > 0 && to > v.maxStep) {
      await this.player.seek(to);
      await this.scan();
      if (stale()) return false;
      to = pick() ?? to;
    }
    // Arriving forward shows the first note of that step, backward its last.
    this.pinned = { step: to, index: edgeNoteAt(this.placed(), to, dir) };
    await this.player.seek(to);
    const now = this.player.current();
    if (now) this.paint(now);
    return true;
  }

  private render(v: View): void {
    this.syncCuts();
    if (!this.on) {
      this.renderStrip(v);
      return;
    }
    const id = this.player.scenarioId;
    const st: PresentState = id ? { id, step: v.step } : { id, step: v.step, source: this.player.sourceText() };
    try {
      sessionStorage.setItem(STATE, JSON.stringify(st));
    } catch {
      /* storage full or blocked: the presentation just does not survive a reload */
    }
    const box = document.getElementById('annotation')!;
    box.hidden = false;
    // New records may resolve more notes; scanning is cheap and incremental.
    if (v.maxStep > 0) void this.scan().then(() => this.on && this.paint(this.player.current() ?? v));
    this.paint(v);
  }

  /** The notes outside presenter mode: a strip when the scenario has notes, hidden otherwise. */
  private renderStrip(v: View): void {
    const box = document.getElementById('annotation')!;
    box.hidden = this.anns.length === 0;
    if (box.hidden) return;
    setAttr(box, 'data-folded', this.folded ? '' : null);
    const fold = document.getElementById('ann-fold')!;
    setText(fold, t(this.folded ? 'notes.show' : 'notes.hide'));
    setAttr(fold, 'aria-expanded', String(!this.folded));
    // Only while a note waits for its record, and past the steps read: a
    // scan is an engine call, and the strip is drawn at every step of a run
    // being played.
    if (v.step > this.stripScanned && stepsOf(this.anns, this.seen).some((s) => s === null)) {
      this.stripScanned = v.step;
      void this.scan().then(() => !this.on && this.paint(this.player.current() ?? v));
    }
    this.paint(v);
  }

  /**
   * Player.stops while presenting: playing, the run stops at each note it
   * reaches (the annotations are "steps worth pausing at"), so that the
   * instructor presses Play and the run stops where there is something to
   * say; Play on the first of two notes of one step shows the second.
   */
  private readonly stops: NonNullable<Player['stops']> = {
    before: (step) => {
      const steps = this.placed();
      const shown = this.shownIndex(steps, step);
      const same = steps[shown] === step ? sameStepNote(steps, shown, 1) : -1;
      if (same < 0) return false;
      this.pinned = { step, index: same };
      const v = this.player.current();
      if (v) this.paint(v);
      return true;
    },
    next: (from) => nearestNoteStep(this.placed(), from, 1),
    reached: async (from, to) => {
      await this.scan();
      const steps = this.placed();
      const at = nearestNoteStep(steps, from, 1);
      if (at === null || at > to) return null;
      this.pinned = { step: at, index: edgeNoteAt(steps, at, 1) };
      return at;
    },
  };

  private paint(v: View): void {
    const steps = this.placed();
    const i = this.shownIndex(steps, v.step);
    const box = document.getElementById('annotation')!;
    box.dataset.at = i >= 0 && steps[i] === v.step ? 'here' : 'before';
    const a = i >= 0 ? this.anns[i] : undefined;
    if (a) {
      // In the page's language when the scenario has the note in it.
      const note = translated<{ title: string; text?: string }>(a, a.translations);
      setText(document.getElementById('ann-title')!, note.title);
      setText(document.getElementById('ann-text')!, note.text ?? '');
    } else {
      // Before the first note, or in a scenario without notes: what the
      // scenario is about and what to watch (its description, cut to a few
      // lines by style.css), so the room is never without a caption.
      box.dataset.at = 'intro';
      setText(document.getElementById('ann-title')!, (document.getElementById('scenario-name')?.textContent ?? '').replace(/^—\s*/, ''));
      setText(document.getElementById('ann-text')!, document.getElementById('scenario-desc')?.textContent?.trim() ?? '');
    }
    const total = this.anns.length;
    // With every note placed, none after the last one reached.
    // (A {step} note past the run's end is placed, at a step the run does not have.)
    const last = stepsOf(this.anns, this.seen).every((s) => s !== null) && !steps.some((s) => s !== null && s > v.step) && (steps[i] !== v.step || sameStepNote(steps, i, 1) < 0);
    if (this.flash && this.flash.step !== v.step) this.flash = null;
    // The clicker's keys are named in presenter mode, the buttons outside it.
    const [one, several, lastNote] = this.on ? ['present.beforeFirstOne', 'present.beforeFirst', 'present.lastNote'] : ['notes.beforeFirstOne', 'notes.beforeFirst', 'notes.lastNote'];
    let count = total === 0 ? t('present.noNotes') : i < 0 ? (total === 1 ? t(one) : t(several, { total })) : t('present.noteCount', { n: i + 1, total });
    // A note read at an earlier step stays (dimmed): it says which step it is about.
    if (i >= 0 && steps[i] !== v.step) count = `${count} · ${t('present.noteFrom', { step: steps[i] ?? 0 })}`;
    if (this.flash) count = `${count} · ${this.flash.text}`;
    else if (total > 0 && last && i >= 0) count = `${count} · ${t(lastNote)}`;
    const countEl = document.getElementById('ann-count')!;
    setText(countEl, count);
    setAttr(countEl, 'title', count); // presenter mode cuts the count to one line
    (document.getElementById('ann-prev') as HTMLButtonElement).disabled = i < 0;
    (document.getElementById('ann-next') as HTMLButtonElement).disabled = total === 0 || last;
  }
}

/**
 * Whether a focused input keeps this key for itself in presenter mode: the
 * slider its arrows, Home and End; a checkbox or radio button Space and the
 * arrows. Every other key (Space, Escape, PageDown, ...) goes to the
 * presenter.
 */
export function inputKeeps(el: Pick<HTMLInputElement, 'type'>, key: string): boolean {
  const arrows = key.startsWith('Arrow');
  if (el.type === 'range') return arrows || key === 'Home' || key === 'End';
  if (el.type === 'checkbox' || el.type === 'radio') return arrows || key === ' ';
  return key === ' ' || key === 'Enter';
}

/**
 * Whether a key press goes to a field being typed in (text, number, the
 * editor, a select's own keys), which keeps its keys. The step slider and
 * buttons do not: a clicker's PageDown after someone touched the slider
 * still goes to the next note, not ten steps back.
 */
export function typingTarget(el: HTMLElement | null): boolean {
  if (!el) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  return !['range', 'checkbox', 'radio', 'button', 'submit', 'reset'].includes((el as HTMLInputElement).type);
}

/** Whether the notes strip was left folded (FOLDED); false when storage is blocked. */
function readFolded(): boolean {
  try {
    return localStorage.getItem(FOLDED) === '1';
  } catch {
    return false;
  }
}
