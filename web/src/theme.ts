// The theme toggle's states: follow the system, or force light or dark.

/** A theme choice. */
export type Theme = 'system' | 'light' | 'dark';

/**
 * The theme after a click: system → light → dark → system.
 *
 *   nextTheme('system') → 'light';  nextTheme('dark') → 'system'
 */
export function nextTheme(t: Theme): Theme {
  return t === 'system' ? 'light' : t === 'light' ? 'dark' : 'system';
}
