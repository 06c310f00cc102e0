// The embedded player's notes: the scenario's annotations (spec.annotations,
// the presenter's notes) in a strip above the panels, so that a docs page
// that embeds a library scenario tells its story step by step without the
// page having to write it again. The note shown is the latest one at or
// before the step (dimmed when it is about an earlier step); "Next note"
// goes to the step of the next one. A note anchored to a decision record
// ({record, nth}) is placed once the player has been at or past that record:
// the engine keeps the records of the steps up to the one shown (a rewind
// drops the later ones, and the run computed ahead keeps none), so a move
// toward a note not placed yet goes forward to read them.
import { h, setAttr, setText } from '../dom';
import { t, translated } from '../i18n';
import type { Annotation } from '../player/player';
import { addRecords, edgeNoteAt, noteAt, type RecordSteps, sameStepNote, stepsOf } from '../present/annotations';
import type { TraceRecord, View } from '../types';

/** Decision records read per engine call while placing the notes. */
const SCAN_LIMIT = 500;

/** What the strip needs of its player. */
export interface NotesHost {
  /** The decision records after seq from, up to the step shown, at most SCAN_LIMIT (null when the engine failed). */
  records(from: number): Promise<TraceRecord[] | null>;
  /** Shows step. */
  seek(step: number): Promise<void>;
  /** Computes more of the run; false once nothing more can be computed (the run ended, or the player's limit). */
  computeMore(): Promise<boolean>;
  /** Whether the run ended (nothing more is due) within what was computed. */
  ended(): boolean;
  /** The view shown (null before the scenario loaded). */
  current(): View | null;
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
  /** Whether the records of the whole run were read (a note still not placed is not in this run). */
  private scannedAll = false;
  /** The note a move chose among several at its step, while that step is shown. */
  private pinned: { step: number; index: number } | null = null;
  /** A move's message ("no more notes"), shown while the step it was asked at is. */
  private flash: { step: number; text: string } | null = null;

  constructor(private readonly host: NotesHost, move: (fn: () => Promise<unknown>) => void) {
    const btn = (cls: string, label: string, dir: 1 | -1) => {
      const b = h('button', { type: 'button', class: cls, text: label, disabled: true });
      b.addEventListener('click', () => move(() => this.move(dir)));
      return b;
    };
    this.prev = btn('pl-note-prev', t('embed.prevNote'), -1);
    this.next = btn('pl-note-next', t('embed.nextNote'), 1);
    this.count = h('span', { class: 'pl-note-count' });
    this.title = h('strong', { class: 'pl-note-title' });
    this.text = h('span', { class: 'pl-note-text' });
    this.root = h(
      'div',
      { class: 'pl-notes', role: 'group', 'aria-label': t('embed.notes'), hidden: true },
      h('div', { class: 'pl-note-nav' }, this.prev, this.next, this.count),
      h('p', { class: 'pl-note', 'aria-live': 'polite' }, this.title, ' ', this.text),
    );
  }

  /** Takes the loaded scenario's notes; the strip shows only when there are some. */
  load(anns: readonly Annotation[]): void {
    this.anns = [...anns];
    this.seen = new Map();
    this.scannedSeq = 0;
    this.scannedStep = 0;
    this.scannedAll = false;
    this.pinned = null;
    this.root.hidden = anns.length === 0;
  }

  /** Whether the scenario has notes. */
  has(): boolean {
    return this.anns.length > 0;
  }

  /** The scans under way, one after another (two at once would read the same records twice). */
  private scanning: Promise<void> = Promise.resolve();

  /** Reads the decision records up to the step shown that were not read yet; resolves to whether it read any. */
  scan(): Promise<boolean> {
    const done = this.scanning.then(() => this.scanOnce());
    this.scanning = done.then(() => undefined);
    return done;
  }

  private async scanOnce(): Promise<boolean> {
    const v = this.host.current();
    if (!this.has() || !v) return false;
    let read = false;
    for (;;) {
      const recs = await this.host.records(this.scannedSeq + 1);
      if (recs === null) return read;
      if (recs.length) {
        addRecords(this.seen, recs);
        this.scannedSeq = recs[recs.length - 1]!.seq;
        read = true;
      }
      if (recs.length < SCAN_LIMIT) break;
    }
    this.scannedStep = Math.max(this.scannedStep, v.step);
    // The records read are those up to v.step; the run may have been
    // computed further meanwhile (computeAhead), so its end is asked now.
    if (this.host.ended() && v.step === this.host.current()?.maxStep) this.scannedAll = true;
    return read;
  }

  /** Whether a note anchored to a record is not placed yet, though it may still be. */
  private unplaced(steps: readonly (number | null)[]): boolean {
    return !this.scannedAll && steps.some((s) => s === null);
  }

  /**
   * Goes to the next (dir 1) or previous (−1) note; several notes at one
   * step are gone through one at a time. Reports whether it moved; when it
   * cannot, the strip says so and the step stays.
   */
  async move(dir: 1 | -1): Promise<boolean> {
    const v = this.host.current();
    if (!v || !this.has()) return false;
    this.flash = null;
    await this.scan();
    const steps = stepsOf(this.anns, this.seen);
    const shown = this.shownIndex(steps, v.step);
    const same = steps[shown] === v.step ? sameStepNote(steps, shown, dir) : -1;
    if (same >= 0) {
      this.pinned = { step: v.step, index: same };
      this.paint(v);
      return true;
    }
    const pick = (): number | null => {
      const cands = stepsOf(this.anns, this.seen).filter((s): s is number => s !== null && (dir > 0 ? s > v.step : s < v.step));
      return cands.length ? (dir > 0 ? Math.min(...cands) : Math.max(...cands)) : null;
    };
    let to = pick();
    // A note not placed yet lies past the records read: before going to
    // the next note placed, read the records up to it (a record note may
    // come first); with none placed ahead, read the whole run's.
    if (dir > 0 && this.unplaced(stepsOf(this.anns, this.seen))) {
      if (to === null) {
        while (await this.host.computeMore());
        await this.host.seek(this.host.current()?.maxStep ?? v.step);
        await this.scan();
        to = pick();
      } else if (to > this.scannedStep) {
        await this.host.seek(to);
        await this.scan();
        to = pick();
      }
    }
    if (to === null) {
      // Back where the reader was: the search only read the run.
      if (this.host.current()?.step !== v.step) await this.host.seek(v.step);
      this.flash = { step: v.step, text: t('embed.noMoreNotes') };
      const now = this.host.current();
      if (now) this.paint(now);
      return false;
    }
    this.pinned = { step: to, index: edgeNoteAt(stepsOf(this.anns, this.seen), to, dir) };
    await this.host.seek(to);
    const now = this.host.current();
    if (now) this.paint(now);
    return true;
  }

  /** The note shown at step: the one a move chose there, else noteAt's. */
  private shownIndex(steps: readonly (number | null)[], step: number): number {
    const p = this.pinned;
    return p && p.step === step && steps[p.index] === step ? p.index : noteAt(steps, step);
  }

  /** Draws the note for view v. */
  paint(v: View): void {
    if (!this.has()) return;
    const steps = stepsOf(this.anns, this.seen);
    const i = this.shownIndex(steps, v.step);
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
    const last = !this.unplaced(steps) && !steps.some((s) => s !== null && s > v.step) && (i < 0 || steps[i] !== v.step || sameStepNote(steps, i, 1) < 0);
    this.prev.disabled = i < 0;
    this.next.disabled = last;
  }
}
