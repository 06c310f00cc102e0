// Which of the player's panels the reader can see, so that a render spends
// its frame on those: the ones scrolled out of view are brought up to date
// a little later (Deferred), or at once when they scroll into view.

/**
 * How late a panel out of view may be brought up to date after a render
 * (ms). A seek in a 10,000-pod run rebuilt the timeline's and the trace's
 * rows below the fold in the frame that showed the step: half of that
 * frame's style, layout and paint (13 ms at 1280x720, measured with a
 * Chromium trace), for rows nobody could see yet.
 */
const OFFSCREEN_DELAY_MS = 150;

/**
 * Tracks whether elements intersect the viewport. Until the browser has
 * answered for an element (and where IntersectionObserver is missing),
 * it counts as in view: nothing is held back that might be seen.
 */
export class Onscreen {
  /** Elements the observer reported out of view (the others count as in view). */
  private readonly hidden = new Set<Element>();

  /** Watches els; cameIntoView is called when one of them scrolls into view. */
  constructor(els: readonly Element[], cameIntoView: () => void) {
    if (typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      let shown = false;
      for (const e of entries) {
        if (!e.isIntersecting) this.hidden.add(e.target);
        else if (this.hidden.delete(e.target)) shown = true;
      }
      if (shown) cameIntoView();
    });
    for (const el of els) io.observe(el);
  }

  /** True unless el was last reported out of view. */
  inView(el: Element): boolean {
    return !this.hidden.has(el);
  }
}

/**
 * The renders of panels that may wait while out of view: each render either
 * runs now (its panel is in view) or is marked stale, and a single timer
 * (not re-armed while it is pending: while playing, the panels out of view
 * are brought up to date every OFFSCREEN_DELAY_MS) runs the stale ones, one
 * panel per task: the engine's answer to the next step, arriving meanwhile,
 * waits for one panel's render, not for all of them (at 100 replicas, all
 * of them at once added 4 ms to the 95th percentile of a step).
 */
export class Deferred {
  private readonly stale = new Set<string>();
  /**
   * The panels that were stale when the delay ended, still to render in
   * this round (one per task); a panel that turns stale again after its
   * turn waits for the next delay.
   */
  private batch: string[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onscreen: Pick<Onscreen, 'inView'>,
    private readonly panels: ReadonlyMap<string, { el: Element; render: () => void }>,
    /** How late a panel out of view may be (e2e raises it to tell the paths apart). */
    public delayMs = OFFSCREEN_DELAY_MS,
  ) {}

  /** Renders the panels in view now and marks the others stale. */
  render(): void {
    for (const [name, p] of this.panels) {
      if (this.onscreen.inView(p.el)) {
        this.stale.delete(name);
        p.render();
      } else this.stale.add(name);
    }
    if (this.stale.size > 0 && this.timer === null) this.timer = setTimeout(() => this.next(), this.delayMs);
  }

  /**
   * The timer: renders the next panel of the round (a panel rendered since
   * it began, in view or by flush, is skipped), the one after in a task of
   * its own; once the round is done, the panels stale again wait for the
   * delay.
   */
  private next(): void {
    this.timer = null;
    if (this.batch.length === 0) this.batch = [...this.stale];
    for (let name = this.batch.shift(); name !== undefined; name = this.batch.shift()) {
      if (!this.stale.delete(name)) continue;
      this.panels.get(name)?.render();
      break;
    }
    if (this.batch.length > 0) this.timer = setTimeout(() => this.next(), 0);
    else if (this.stale.size > 0) this.timer = setTimeout(() => this.next(), this.delayMs);
  }

  /** Renders every stale panel now (a panel scrolling into view, tests). */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.batch = [];
    for (const name of [...this.stale]) {
      this.stale.delete(name);
      this.panels.get(name)?.render();
    }
  }

  /** True while a panel's content is behind the view shown. */
  get pending(): boolean {
    return this.stale.size > 0;
  }
}
