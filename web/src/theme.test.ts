import { expect, it } from 'vitest';
import { nextTheme } from './theme';

it('cycles system → light → dark → system', () => {
  expect(nextTheme('system')).toBe('light');
  expect(nextTheme('light')).toBe('dark');
  expect(nextTheme('dark')).toBe('system');
});
