import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare, fromBase64URL, isShareFragment, type ShareState, toBase64URL } from './codec';

const state: ShareState = {
  source: 'apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: 中文 ✓\n',
  name: 'x.yaml',
  seed: 7,
  actions: [
    { step: 3, action: { type: 'scale', target: 'deployment/web', replicas: 12 } },
    { step: 9, action: { type: 'setImage', target: 'deployment/web', image: 'nginx:1.27' } },
  ],
  step: 14,
  lang: 'zh-CN',
};

describe('share links', () => {
  it('round-trips the state through a URL-safe fragment', async () => {
    const hash = await encodeShare(state);
    expect(hash).toMatch(/^#v1\.[A-Za-z0-9_-]+$/);
    expect(isShareFragment(hash)).toBe(true);
    await expect(decodeShare(hash)).resolves.toEqual({ ok: true, state });
    // without the leading '#', as location.hash.slice(1) gives it
    await expect(decodeShare(hash.slice(1))).resolves.toEqual({ ok: true, state });
  });

  it('carries the What if? comparison on screen, and refuses a malformed one', async () => {
    const surge = { type: 'setRollingUpdate', target: 'deployment/web', maxSurge: '100%' } as const;
    const withForks: ShareState = { ...state, forks: { atStep: 9, runs: [{ action: surge, keepAt: true, keepLater: true, afterActions: 1 }, { action: surge, afterActions: 2 }] } };
    await expect(decodeShare(await encodeShare(withForks))).resolves.toEqual({ ok: true, state: withForks });
    const run = { action: surge, afterActions: 0 };
    for (const forks of [
      { atStep: 9, runs: [{ action: surge, afterActions: 3 }] }, // more actions than the link has
      { atStep: 9, runs: [{ action: surge, afterActions: 2 }, { action: surge, afterActions: 1 }] }, // C forked before B
      { atStep: 9, runs: [{ action: surge }] },
      { atStep: -1, runs: [run] },
      { atStep: 9, runs: [] },
      { atStep: 9, runs: [run, run, run, run] }, // B, C, D at most
      { atStep: 9, runs: [{ action: { target: 'x' }, afterActions: 0 }] },
      { atStep: 9, runs: [{ ...run, keepAt: 'yes' }] },
    ]) {
      const r = await decodeShare(await encodeShare({ ...state, forks } as unknown as ShareState));
      expect(r, JSON.stringify(forks)).toMatchObject({ ok: false, kind: 'corrupt' });
    }
  });

  it('compresses a long scenario', async () => {
    const big = { ...state, source: 'apiVersion: apps/v1\nkind: Deployment\n'.repeat(200) };
    const hash = await encodeShare(big);
    expect(hash.length).toBeLessThan(big.source.length / 10);
  });

  it('reports a newer version without reading it', async () => {
    await expect(decodeShare('#v2.anything')).resolves.toEqual({ ok: false, kind: 'newer', version: 2 });
  });

  it('reports corrupt links, never throws', async () => {
    const good = await encodeShare(state);
    const cases = ['#nope', '#v1.', '#v1.$$$', `${good.slice(0, -6)}`, '#v1.' + toBase64URL(new TextEncoder().encode('plain')), '#v0.abc'];
    for (const c of cases) {
      const r = await decodeShare(c);
      expect(r.ok, c).toBe(false);
      if (!r.ok) expect(r.kind, c).toBe('corrupt');
    }
  });

  it('rejects well-formed JSON of the wrong shape', async () => {
    const enc = async (v: unknown) => {
      const packed = await new Response(new Blob([JSON.stringify(v)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer();
      return `#v1.${toBase64URL(new Uint8Array(packed))}`;
    };
    for (const v of [{}, { source: 'x', step: -1, actions: [] }, { source: 'x', step: 1, actions: [{ step: 1 }] }, { id: 'short', step: 0, actions: [] }]) {
      const r = await decodeShare(await enc(v));
      expect(r).toMatchObject({ ok: false, kind: 'corrupt', reason: 'unexpected contents' });
    }
    await expect(decodeShare(await enc({ id: 'a'.repeat(32), step: 0, actions: [] }))).resolves.toMatchObject({ ok: true });
  });

  it('base64url round-trips every byte value', () => {
    const all = new Uint8Array(256).map((_, i) => i);
    expect(fromBase64URL(toBase64URL(all))).toEqual(all);
    expect(fromBase64URL('a+b')).toBeNull();
  });
});
