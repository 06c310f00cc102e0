import { expect, it } from 'vitest';

// script.ts registers the custom element when imported; these tests only
// need dedent, so the browser globals it touches are stubbed.
it('dedent strips the indentation every line shares, tabs included', async () => {
  const g = globalThis as Record<string, unknown>;
  g.location ??= { origin: 'http://x' };
  g.window ??= { addEventListener: () => {} };
  g.customElements ??= { get: () => true, define: () => {} };
  g.HTMLElement ??= class {};
  g.document ??= { readyState: 'complete', querySelectorAll: () => [], documentElement: {}, body: {}, addEventListener: () => {} };
  g.MutationObserver ??= class {
    observe(): void {}
  };
  const { dedent } = await import('./script');
  expect(dedent('\n\t\tkind: A\n\t\tspec:\n\t\t  x: 1\n\t')).toBe('kind: A\nspec:\n  x: 1\n');
  expect(dedent('\n    kind: A\n\n    spec:\n      x: 1\n  ')).toBe('kind: A\n\nspec:\n  x: 1\n');
  // Mixed: only the common prefix goes.
  expect(dedent('\t  a: 1\n\t  b:\n\t    c: 2')).toBe('a: 1\nb:\n  c: 2\n');
});
