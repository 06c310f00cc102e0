// The keyboard map: which key runs which command. Pure, so it is tested
// without a browser; app.ts wires it to keydown.

/** What a shortcut does. */
export type Command =
  | 'stepEvent'
  | 'stepSync'
  | 'settle'
  | 'back'
  | 'togglePlay'
  | 'reset'
  | 'help'
  | 'closeOverlay'
  | 'first'
  | 'last';

/** The shortcuts, as documented in the help overlay (keys as KeyboardEvent.key; label is an i18n key). */
export const SHORTCUTS: readonly { keys: string[]; command: Command; label: string }[] = [
  { keys: ['ArrowRight', 'n'], command: 'stepEvent', label: 'keys.stepEvent' },
  { keys: ['s'], command: 'stepSync', label: 'keys.stepSync' },
  { keys: ['e'], command: 'settle', label: 'keys.settle' },
  { keys: ['ArrowLeft', 'b'], command: 'back', label: 'keys.back' },
  { keys: [' '], command: 'togglePlay', label: 'keys.togglePlay' },
  { keys: ['Home'], command: 'first', label: 'keys.first' },
  { keys: ['End'], command: 'last', label: 'keys.last' },
  { keys: ['r'], command: 'reset', label: 'keys.reset' },
  { keys: ['?'], command: 'help', label: 'keys.help' },
  { keys: ['Escape'], command: 'closeOverlay', label: 'keys.close' },
];

/** The parts of a KeyboardEvent the map looks at. */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Tag name of the focused element, upper case (e.g. "INPUT"). */
  targetTag: string;
  /** True when the focused element is contenteditable (the code editor). */
  targetEditable: boolean;
  /** The focused element's type attribute for inputs (e.g. "range"). */
  targetType?: string;
}

const TYPING_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * The command for a key press, or null to let the browser handle it. Keys
 * with Ctrl/Meta/Alt are never taken, nor keys typed into a form field or the
 * editor (except Escape); Space and the arrows on a focused button, range or
 * select keep their native meaning.
 *
 *   commandFor({key: 'n', …, targetTag: 'BODY'})   → 'stepEvent'
 *   commandFor({key: 'n', …, targetTag: 'INPUT'})  → null
 */
export function commandFor(k: KeyInput): Command | null {
  if (k.ctrlKey || k.metaKey || k.altKey) return null;
  const typing = TYPING_TAGS.has(k.targetTag) || k.targetEditable;
  if (k.key === 'Escape') return 'closeOverlay';
  if (typing) return null;
  if (k.key === ' ' && (k.targetTag === 'BUTTON' || k.targetTag === 'SUMMARY' || k.targetTag === 'A')) return null;
  const key = k.key.length === 1 ? k.key.toLowerCase() : k.key;
  for (const s of SHORTCUTS) if (s.keys.includes(key) || s.keys.includes(k.key)) return s.command;
  return null;
}

/** A key name for the help overlay: " " → "Space", "ArrowRight" → "→". */
export function keyLabel(key: string): string {
  const names: Record<string, string> = { ' ': 'Space', ArrowRight: '→', ArrowLeft: '←', Escape: 'Esc' };
  return names[key] ?? key;
}

/**
 * Runs the actions of key presses and clicks one at a time. A press made
 * while one is carried out follows in turn (three quick → are three
 * steps), up to max waiting; a held key's repeats are dropped while one
 * runs, so they do not pile up behind a slow step. goOn stops the presses
 * still waiting (presenter mode left).
 */
export class PressQueue {
  private busy = false;
  private waiting: (() => Promise<unknown>)[] = [];

  constructor(
    private readonly max = 3,
    private readonly goOn: () => boolean = () => true,
  ) {}

  /** Runs act now, or after those under way and waiting; repeat marks a held key's repeat. */
  async push(act: () => Promise<unknown>, repeat = false): Promise<void> {
    if (this.busy) {
      if (!repeat && this.waiting.length < this.max) this.waiting.push(act);
      return;
    }
    this.busy = true;
    try {
      for (let next: (() => Promise<unknown>) | undefined = act; next && this.goOn(); next = this.waiting.shift()) await next();
    } finally {
      this.busy = false;
      this.waiting = [];
    }
  }

  /** Drops the presses waiting. */
  clear(): void {
    this.waiting = [];
  }
}
