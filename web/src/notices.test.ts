import { expect, it } from 'vitest';
import './i18n/all';
import './i18n/zh-CN/all'; // loaded lazily in the app
import { setLocale } from './i18n';
import { loadedStatus } from './notices';

it('loadedStatus counts the notices, in both languages', () => {
  expect(loadedStatus('web', [])).toBe('Loaded web.');
  const n = [{ code: 'ignored', kind: 'Service', name: 'web', line: 3, message: 'ignored (not simulated)' }];
  expect(loadedStatus('web', n)).toBe('Loaded web (1 notice(s) below).');
  setLocale('zh-CN');
  expect(loadedStatus('web', n)).toBe('已加载 web（下方有 1 条提示）。');
  setLocale('en');
});
