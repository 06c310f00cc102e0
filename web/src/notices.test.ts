import { expect, it } from 'vitest';
import './i18n/all';
import './i18n/zh-CN/all'; // loaded lazily in the app
import { setLocale } from './i18n';
import { groupNotices, loadedStatus } from './notices';

it('loadedStatus counts the notices, in both languages', () => {
  expect(loadedStatus('web', [])).toBe('Loaded web.');
  const n = [{ code: 'ignored', kind: 'Service', name: 'web', line: 3, message: 'ignored (not simulated)' }];
  expect(loadedStatus('web', n)).toBe('Loaded web (1 notice(s) below).');
  setLocale('zh-CN');
  expect(loadedStatus('web', n)).toBe('已加载 web（下方有 1 条提示）。');
  setLocale('en');
});

it('groupNotices makes one item of three or more objects of a kind with the same notice, in order', () => {
  const cm = (name: string, line: number) => ({ code: 'ignored', kind: 'ConfigMap', name, line, message: 'ignored (not simulated)' });
  const svc = { code: 'ignored', kind: 'Service', name: 'web', line: 2, message: 'ignored (not simulated)' };
  const file = { code: 'noScenario', message: 'no Scenario document' };
  const g = groupNotices([file, cm('a', 1), svc, cm('b', 5), cm('c', 9), { ...cm('d', 12), kind: 'Secret' }, { ...cm('e', 14), kind: 'Secret' }]);
  expect(g.map((x) => x.map((n) => n.name ?? '-'))).toEqual([['-'], ['a', 'b', 'c'], ['web'], ['d'], ['e']]);
});
