import { describe, expect, it } from 'vitest';
import { lineStyle, ticks } from './chart';
import { move, PANELS, parseLayout } from './layout';
import { initialLocale } from './locale';
import { sourceURL } from './sources';
import { kubectlCommands } from './player';
import type { View } from '../types';

describe('panel layout', () => {
  it('keeps a saved order, drops unknown ids and appends missing panels', () => {
    const l = parseLayout('[{"id":"math","shown":false},{"id":"nope"},{"id":"cluster"}]');
    expect(l.slice(0, 2)).toEqual([{ id: 'math', shown: false }, { id: 'cluster', shown: true }]);
    expect(l.map((s) => s.id).sort()).toEqual([...PANELS].sort());
    expect(parseLayout('not json').map((s) => s.id)).toEqual([...PANELS]);
  });
  it('moves a panel and ignores moves past the ends', () => {
    const l = parseLayout(null);
    expect(move(l, 1, -1).map((s) => s.id).slice(0, 2)).toEqual(['math', 'cluster']);
    expect(move(l, 0, -1)).toEqual(l);
  });
});

describe('chart helpers', () => {
  it('gives round ticks', () => {
    expect(ticks(0, 13, 5)).toEqual([0, 5, 10]);
    expect(ticks(0, 300, 5)).toEqual([0, 100, 200, 300]);
    expect(ticks(95, 160, 6)).toEqual([100, 120, 140, 160]);
  });
  it('never draws two of the first 12 series alike', () => {
    const seen = new Set(Array.from({ length: 12 }, (_, i) => JSON.stringify(lineStyle(i, false))));
    expect(seen.size).toBe(12);
    expect(lineStyle(0, true).color).toBe('avail');
  });
});

describe('locale', () => {
  it('prefers the URL, then the stored choice, then the browser', () => {
    expect(initialLocale('?lang=zh-CN', 'en', 'en-US')).toBe('zh-CN');
    expect(initialLocale('', 'zh-CN', 'en-US')).toBe('zh-CN');
    expect(initialLocale('?lang=fr', null, 'zh-TW')).toBe('zh-CN');
    expect(initialLocale('', null, undefined)).toBe('en');
  });
});

it('links upstream functions to their file at v1.36.3', () => {
  expect(sourceURL('reconcileOldReplicaSets')).toBe('https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/rolling.go');
  expect(sourceURL('manageReplicas')).toBe('https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/replicaset/replica_set.go');
  expect(sourceURL('nope')).toBeNull();
});

describe('every string the page uses is translated', () => {
  it('knows every data-i18n key of index.html and every literal t() key of the sources', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    await import('../i18n/all');
    await import('../i18n/present-modes'); // the presenter and predict chunks bring their own strings
    await import('../i18n/math'); // and the math panel's formatting its own
    const { has } = await import('../i18n');
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const keys = [...html.matchAll(/data-i18n(?:-aria)?="([^"]+)"/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(30);
    for (const dir of ['../player/', '../present/', '../']) {
      for (const f of readdirSync(new URL(dir, import.meta.url))) {
        if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
        const src = readFileSync(new URL(dir + f, import.meta.url), 'utf8');
        for (const m of src.matchAll(/\bt\('([\w.]+)'/g)) keys.push(m[1]!);
      }
    }
    expect(keys.filter((k) => !has(k))).toEqual([]);
  });
});

describe('kubectl panel commands', () => {
  const obj = (namespace: string, name: string) => ({ namespace, name });
  const view = (deps: { namespace: string; name: string }[], rss: { namespace: string; name: string }[]) =>
    ({ deployments: deps, replicaSets: rss }) as unknown as View;
  it('adds -n for objects outside default, and none inside it', () => {
    expect(kubectlCommands(view([obj('shop', 'web')], [obj('shop', 'web-5d4f')]))).toEqual([
      'get deploy -o wide -n shop',
      'get rs -o wide -n shop',
      'get pods -o wide -n shop',
      'describe deployment web -n shop',
      'rollout status deployment/web -n shop',
      'rollout history deployment/web -n shop',
      'describe rs web-5d4f -n shop',
    ]);
    expect(kubectlCommands(view([obj('default', 'web')], null as never))).toEqual([
      'get deploy -o wide',
      'get rs -o wide',
      'get pods -o wide',
      'describe deployment web',
      'rollout status deployment/web',
      'rollout history deployment/web',
    ]);
  });
  it('lists across namespaces with -A when the objects span several', () => {
    const cmds = kubectlCommands(view([obj('default', 'api'), obj('shop', 'web')], []));
    expect(cmds.slice(0, 3)).toEqual(['get deploy -o wide -A', 'get rs -o wide -A', 'get pods -o wide -A']);
    expect(cmds).toContain('describe deployment api');
    expect(cmds).toContain('rollout status deployment/web -n shop');
  });
});
