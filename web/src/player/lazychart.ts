// The replicas chart arrives in its own chunk, loaded once the first step is
// on screen (like the what-if room), so its code is off the first-load
// budget. Until then the player talks to a stand-in that keeps what the
// panel will need: the settings, the overlay and the last render's samples.

import type { Sample } from '../types';
import type { ChartPanel } from './chartpanel';

type Settings = Pick<ChartPanel, 'axis' | 'range' | 'zoom' | 'lastActionStep'>;

/** The chart panel, or its stand-in until the chunk has loaded (ChartPanel's surface as the player uses it). */
export class LazyChart {
  private panel: ChartPanel | null = null;
  private loading: Promise<void> | null = null;
  private readonly settings: Settings = { axis: 'step', range: null, zoom: 'all', lastActionStep: 0 };
  private overlay: readonly Sample[] | null = null;
  private overlayLabel = '';
  private last: { samples: readonly Sample[]; step: number } | null = null;

  /** make builds the panel from the loaded module. */
  constructor(private readonly make: (m: typeof import('./chartpanel')) => ChartPanel) {}

  /** Loads the panel (once, or again after a failed fetch) and draws it with what the stand-in kept. */
  load(): Promise<void> {
    this.loading ??= import('./chartpanel').then((m) => {
      const p = this.make(m);
      Object.assign(p, this.settings);
      p.setOverlay(this.overlay, this.overlayLabel);
      this.panel = p;
      if (this.last) p.render(this.last.samples, this.last.step);
    }, () => {
      this.loading = null; // the chunk did not arrive: the next load() tries again
    });
    return this.loading;
  }

  get axis(): Settings['axis'] {
    return this.panel ? this.panel.axis : this.settings.axis;
  }
  set axis(v: Settings['axis']) {
    if (this.panel) this.panel.axis = v;
    else this.settings.axis = v;
  }
  get range(): Settings['range'] {
    return this.panel ? this.panel.range : this.settings.range;
  }
  set range(v: Settings['range']) {
    if (this.panel) this.panel.range = v;
    else this.settings.range = v;
  }
  get zoom(): Settings['zoom'] {
    return this.panel ? this.panel.zoom : this.settings.zoom;
  }
  set zoom(v: Settings['zoom']) {
    if (this.panel) this.panel.zoom = v;
    else this.settings.zoom = v;
  }
  get lastActionStep(): number {
    return this.panel ? this.panel.lastActionStep : this.settings.lastActionStep;
  }
  set lastActionStep(v: number) {
    if (this.panel) this.panel.lastActionStep = v;
    else this.settings.lastActionStep = v;
  }

  setOverlay(samples: readonly Sample[] | null, label = ''): void {
    if (this.panel) {
      this.panel.setOverlay(samples, label);
    } else {
      this.overlay = samples;
      this.overlayLabel = label;
    }
  }

  render(samples: readonly Sample[], currentStep: number): void {
    if (this.panel) this.panel.render(samples, currentStep);
    else this.last = { samples, step: currentStep };
  }

  flush(): void {
    this.panel?.flush();
  }
}
