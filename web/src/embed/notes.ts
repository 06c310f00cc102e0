// The embedded player's notes: the scenario's annotations (spec.annotations,
// the presenter's notes) in a strip above the panels, so that a docs page
// that embeds a library scenario tells its story step by step without the
// page having to write it again. The note shown is the latest one at or
// before the step (dimmed when it is about an earlier step); "Next note"
// goes to the step of the next one. A note anchored to a decision record
// ({record, nth}) is placed once the player has been at or past that record:
// the engine keeps the records of the steps up to the one shown (a rewind
// drops the later ones, and the run computed ahead keeps none), so a move
// toward a note not placed yet goes forward to read them, with the player's
// drawing held: the reader sees the note's step, not the search.
import { h, setAttr, setText } from '../dom';
import { t, translated } from '../i18n';
import type { Annotation } from '../player/player';
import { addRecords, edgeNoteAt, nearestNoteStep, type PinnedNote, type RecordSteps, sameStepNote, shownNote, stepsOf } from '../present/annotations';
import type { TraceRecord, View } from '../types';

/** Decision records asked for per engine call while placing the notes. */
const SCAN_LIMIT = 500;

/**
 * How long playback stays on a note it reaches, so that the reader can
 * read it (ms): a base, and time per character of its title and text
 * (about 25 characters a second), within bounds.
 */
export function dwellMs(chars: number): number {
  return Math.min(12_000, Math.max(3_000, 1_500 + 40 * chars));
}

/** What the strip needs of its player. */
export interface NotesHost {
  /** The decision records after seq from, up to the step shown, at most limit (null when the engine failed). */
  records(from: number, limit: number): Promise<TraceRecord[] | null>;
  /** Shows step (stopping playback). */
  seek(step: number): Promise<void>;
  /** Computes more of the run; false once nothing more can be computed (the run ended, or the player's limit). */
  computeMore(): Promise<boolean>;
  /** The run's last step, once it is known that nothing follows it (it ended, or the player's limit); else null. */
  end(): number | null;
  /** How many seeks and steps the player has asked the engine for so far, or null while one is under way. */
  moves(): number | null;
  /** The view shown (null before the scenario loaded). */
  current(): View | null;
  /** Draws the player again in the next frame, the strip with it (paint): the step label and the note change together. */
  redraw(): void;
  /** Runs fn with the player's drawing held (the steps a search goes through are not shown), then draws. */
  hold<T>(fn: () => Promise<T>): Promise<T>;
}

export class NotesStrip {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly text: HTMLElement;
  private readonly count: HTMLElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private anns: Annotation[] = [];
  /** Steps of the decision records read so far, by type (where {record, nth} notes fall). */
  private seen: RecordSteps = new Map();
  /** The last record read (seq). */
  private scannedSeq = 0;
  /** The furthest step whose records were all read. */
  private scannedStep = 0;
  /** The note a move chose among several at its step, while that step is shown. */
  private pinned: PinnedNote | null = null;
  /** A move's message ("no more notes"), shown while the step it was asked at is. */
  private flash: { step: number; text: string } | null = null;
  /** Whether the buttons act (the player is ready). */
  private live = false;
  /** The scans under way, one after another (two at once would read the same records twice). */
  private scanning: Promise<unknown> = Promise.resolve();

  /** shown: whether the strip is shown (the embedder may turn it off and still start at a note, see goTo). */
  constructor(
    private readonly host: NotesHost,
    move: (fn: () => Promise<unknown>) => void,
    private readonly shown: boolean,
  ) {
    // aria-disabled, not disabled: a button that disables itself under
    // the reader's click would drop the focus to the host page, whose
    // next PageUp would scroll it instead of going back a note.
    const btn = (cls: string, label: string, name: string, key: string, dir: 1 | -1) => {
      const b = h('button', { type: 'button', class: cls, text: label, 'aria-label': name, 'aria-keyshortcuts': key, 'aria-disabled': 'true' });
      b.addEventListener('click', () => {
        if (b.getAttribute('aria-disabled') !== 'true') move(() => this.move(dir));
      });
      return b;
    };
    this.prev = btn('pl-note-prev', t('embed.prevNote'), t('embed.prevNoteName'), 'PageUp', -1);
    this.next = btn('pl-note-next', t('embed.nextNote'), t('embed.nextNoteName'), 'PageDown', 1);
    this.count = h('span', { class: 'pl-note-count', role: 'status' });
    this.title = h('strong', { class: 'pl-note-title' });
    this.text = h('span', { class: 'pl-note-text' });
    this.root = h(
      'div',
      { class: 'pl-notes', role: 'group', 'aria-label': t('embed.notes'), hidden: true },
      h('div', { class: 'pl-note-nav' }, this.count, this.prev, this.next),
      h('p', { class: 'pl-note', 'aria-live': 'polite' }, this.title, ' ', this.text),
    );
  }

  /** Takes the loaded scenario's notes; the strip shows only when there are some. */
  load(anns: readonly Annotation[]): void {
    this.anns = [...anns];
    this.seen = new Map();
    this.scannedSeq = 0;
    this.scannedStep = 0;
    this.pinned = null;
    this.flash = null;
    this.root.hidden = !this.has();
  }

  /** The player is ready: the buttons act from now on. */
  ready(): void {
    this.live = true;
    const v = this.host.current();
    if (v) this.paint(v);
  }

  /** Whether the strip is shown: the embedder wants it and the scenario has notes. */
  has(): boolean {
    return this.shown && this.anns.length > 0;
  }

  /** Whether the note keys act now. */
  acts(): boolean {
    return this.has() && this.live;
  }

  /** How many notes the scenario has. */
  total(): number {
    return this.anns.length;
  }

  /**
   * The step of each note, null for one not placed yet or not in this run
   * (a record it never writes, a step past its end).
   */
  private steps(): (number | null)[] {
    return stepsOf(this.anns, this.seen, this.host.end());
  }

  /** Whether the records of the whole run were read: a note still not placed is not in this run. */
  private scannedAll(): boolean {
    const end = this.host.end();
    return end !== null && this.scannedStep >= end;
  }

  /**
   * Whether a note anchored to a record is not placed yet, though it may
   * still be. (A {step} note is placed from the start, past the run's end
   * or not: steps() drops that one for choosing and drawing.)
   */
  private unplaced(): boolean {
    return !this.scannedAll() && stepsOf(this.anns, this.seen).some((s) => s === null);
  }

  /**
   * Reads the decision records up to the step shown that were not read
   * yet; resolves to whether that may change what the strip shows. While
   * the strip is shown and a note is not placed, unless always (goTo).
   */
  scan(always = false): Promise<boolean> {
    if (this.anns.length === 0 || (!always && !(this.has() && this.unplaced()))) return Promise.resolve(false);
    const done = this.scanning.then(() => this.scanOnce());
    this.scanning = done.catch(() => undefined);
    return done;
  }

  private async scanOnce(): Promise<boolean> {
    const v = this.host.current();
    if (!v) return false;
    // The records read are those up to the step the engine is at: v's,
    // unless a seek or step was under way or came meanwhile (a reader's
    // press between two pages of records).
    const moves = this.host.moves();
    const wasAll = this.scannedAll();
    let read = false;
    for (;;) {
      const recs = await this.host.records(this.scannedSeq + 1, SCAN_LIMIT);
      if (recs === null) return read;
      if (recs.length) {
        addRecords(this.seen, recs);
        this.scannedSeq = recs[recs.length - 1]!.seq;
        read = true;
      }
      if (recs.length < SCAN_LIMIT) break;
    }
    if (moves !== null && this.host.moves() === moves) this.scannedStep = Math.max(this.scannedStep, v.step);
    return read || this.scannedAll() !== wasAll;
  }

  /** Computes the whole run (up to the player's limit), goes to its end and reads its records. */
  private async readToEnd(): Promise<void> {
    setText(this.count, t('embed.searching'));
    while (await this.host.computeMore());
    await this.host.seek(this.host.current()?.maxStep ?? 0);
    await this.scan(true);
  }

  /** Whether the run reaches step, computing it further as needed. */
  private async reaches(step: number): Promise<boolean> {
    while ((this.host.current()?.maxStep ?? 0) < step) if (!(await this.host.computeMore())) break;
    return (this.host.current()?.maxStep ?? 0) >= step;
  }

  /**
   * Goes to the step of note n (1 = the first in the file), placing it
   * first when it is anchored to a record not read yet; false when the
   * run has no such note (n past the last, a record the run never
   * writes, or a step past the run's end).
   */
  async goTo(n: number): Promise<boolean> {
    const i = n - 1;
    if (i < 0 || i >= this.anns.length) return false;
    return this.host.hold(async () => {
      await this.scan(true);
      if (this.steps()[i] === null && !this.scannedAll()) await this.readToEnd();
      const at = this.steps()[i];
      if (at === null || at === undefined || !(await this.reaches(at))) return false;
      this.pinned = { step: at, index: i };
      await this.host.seek(at);
      return true;
    });
  }

  /**
   * Goes to the next (dir 1) or previous (−1) note; several notes at one
   * step are gone through one at a time. Reports whether it moved; when it
   * cannot, the strip says so and the step stays.
   */
  async move(dir: 1 | -1): Promise<boolean> {
    const v = this.host.current();
    if (!v || !this.acts()) return false;
    this.flash = null;
    return this.host.hold(() => this.moveFrom(v, dir));
  }

  private async moveFrom(v: View, dir: 1 | -1): Promise<boolean> {
    await this.scan();
    const here = this.steps();
    const shown = shownNote(here, v.step, this.pinned);
    const same = here[shown] === v.step ? sameStepNote(here, shown, dir) : -1;
    if (same >= 0) {
      this.pinned = { step: v.step, index: same };
      this.host.redraw();
      return true;
    }
    const pick = () => nearestNoteStep(this.steps(), v.step, dir);
    let to = pick();
    if (dir > 0) {
      // A note not placed yet lies past the records read: before going to
      // the next note placed, read the records up to it (a record note may
      // come first); with none placed ahead, read the whole run's. A note
      // at a step the run does not reach is not in it (steps() drops it
      // once the end is known).
      for (let tries = 0; tries < this.anns.length + 1; tries++) {
        if (to === null && this.unplaced()) await this.readToEnd();
        else if (to !== null && to > this.scannedStep && this.unplaced()) {
          if (await this.reaches(to)) {
            await this.host.seek(to);
            await this.scan(true);
          }
        } else if (to !== null && !(await this.reaches(to))) {
          // Not reached: the end is known now.
        } else break;
        to = pick();
      }
      // The engine may have failed meanwhile: go only where the run reaches.
      if (to !== null && !(await this.reaches(to))) to = null;
    }
    if (to === null) {
      // Back where the reader was: the search only read the run.
      if (this.host.current()?.step !== v.step) await this.host.seek(v.step);
      this.flash = { step: v.step, text: t('embed.noMoreNotes') };
      this.host.redraw();
      return false;
    }
    this.pinned = { step: to, index: edgeNoteAt(this.steps(), to, dir) };
    await this.host.seek(to);
    this.host.redraw();
    return true;
  }

  // Playback stays on each note it reaches, one note at a time: the
  // player advances no further than the next note placed (nextStop), asks
  // which note it reached (reached; a record note found only now may lie
  // before the step it advanced to), pins it and waits its reading time,
  // then shows the next note of the same step, if any (sameStepNext),
  // before it advances again.

  /** The step of the next note placed after step, for playback to stop at; null for none known (or the strip not shown). */
  nextStop(step: number): number | null {
    return this.has() ? nearestNoteStep(this.steps(), step, 1) : null;
  }

  /** The first note (by step, then in file order) with from < its step ≤ to, and how long to stay on it; null for none. */
  async reached(from: number, to: number): Promise<{ step: number; index: number; ms: number } | null> {
    if (!this.has()) return null;
    await this.scan();
    const steps = this.steps();
    const at = nearestNoteStep(steps, from, 1);
    if (at === null || at > to) return null;
    const index = edgeNoteAt(steps, at, 1);
    return { step: at, index, ms: this.readingMs(index) };
  }

  /** The note after the one shown at step, at that same step, and how long to stay on it; null for none. */
  sameStepNext(step: number): { index: number; ms: number } | null {
    if (!this.has()) return null;
    const steps = this.steps();
    const shown = shownNote(steps, step, this.pinned);
    const index = steps[shown] === step ? sameStepNote(steps, shown, 1) : -1;
    return index < 0 ? null : { index, ms: this.readingMs(index) };
  }

  /** Shows note index while step is shown. */
  pin(step: number, index: number): void {
    this.pinned = { step, index };
  }

  /** How long note i takes to read (dwellMs of its title and text, in the language shown). */
  private readingMs(i: number): number {
    const a = this.anns[i]!;
    const note = translated<{ title: string; text?: string }>(a, a.translations);
    return dwellMs(note.title.length + (note.text?.length ?? 0));
  }

  /** How long to stay on the note shown at step before playing on when playback starts there (0 when none is about this step). */
  hereMs(step: number): number {
    if (!this.has()) return 0;
    const steps = this.steps();
    const i = shownNote(steps, step, this.pinned);
    return i >= 0 && steps[i] === step ? this.readingMs(i) : 0;
  }

  /** Draws the note for view v. */
  paint(v: View): void {
    if (!this.has()) return;
    const steps = this.steps();
    const i = shownNote(steps, v.step, this.pinned);
    const a = i >= 0 ? this.anns[i] : undefined;
    const total = this.anns.length;
    if (a) {
      const note = translated<{ title: string; text?: string }>(a, a.translations);
      setText(this.title, note.title);
      setText(this.text, note.text ?? '');
      this.root.dataset.at = steps[i] === v.step ? 'here' : 'before';
    } else {
      setText(this.title, '');
      setText(this.text, total === 1 ? t('embed.notesAheadOne') : t('embed.notesAhead', { total }));
      this.root.dataset.at = 'ahead';
    }
    let count = i >= 0 ? t('embed.noteCount', { n: i + 1, total }) : '';
    if (i >= 0 && steps[i] !== v.step) count += ` · ${t('embed.noteFrom', { step: steps[i] ?? 0 })}`;
    if (this.flash && this.flash.step !== v.step) this.flash = null;
    if (this.flash) count = count ? `${count} · ${this.flash.text}` : this.flash.text;
    setText(this.count, count);
    setAttr(this.count, 'title', count);
    // With every note that can be placed placed, none lies after the one shown.
    const last = !this.unplaced() && nearestNoteStep(steps, v.step, 1) === null && (i < 0 || steps[i] !== v.step || sameStepNote(steps, i, 1) < 0);
    setAttr(this.prev, 'aria-disabled', String(!this.live || i < 0));
    setAttr(this.next, 'aria-disabled', String(!this.live || last));
  }
}
