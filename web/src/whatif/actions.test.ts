import { describe, expect, it } from 'vitest';
import '../i18n/all';
import '../i18n/whatif';
import { type Built, FORMS, intOrPercent, manifestOf, parseEnv, runLabel, type Target } from './actions';

const web: Target = {
  namespace: 'default', name: 'web', target: 'deployment/web', replicas: 3, paused: false, strategy: 'RollingUpdate',
  minReadySeconds: 0, progressDeadlineSeconds: 600, containers: [{ name: 'app', image: 'a:1' }, { name: 'log', image: 'l:1' }],
};
const shop: Target = { ...web, namespace: 'shop' };

const build = (id: string, v: Record<string, string>, t: Target | undefined = web, variant = id): Built => FORMS.find((f) => f.id === id)!.build(v, t, variant);

describe('action forms', () => {
  it('set image names the picked container and the namespace when not default', () => {
    expect(build('setImage', { container: 'log', image: ' l:2 ' })).toEqual({ action: { type: 'setImage', target: 'deployment/web', container: 'log', image: 'l:2' } });
    expect(build('setImage', { container: 'app', image: 'a:2' }, shop)).toEqual({ action: { type: 'setImage', target: 'deployment/web', namespace: 'shop', container: 'app', image: 'a:2' } });
    expect(build('setImage', { container: 'app', image: '' })).toEqual({ error: 'whatif.err.imageRequired' });
  });
  it('maxSurge and maxUnavailable take numbers and percentages, at least one', () => {
    expect(build('setRollingUpdate', { maxSurge: '100%', maxUnavailable: '' })).toEqual({ action: { type: 'setRollingUpdate', target: 'deployment/web', maxSurge: '100%' } });
    expect(build('setRollingUpdate', { maxSurge: '1', maxUnavailable: '0' })).toEqual({ action: { type: 'setRollingUpdate', target: 'deployment/web', maxSurge: 1, maxUnavailable: 0 } });
    expect(build('setRollingUpdate', { maxSurge: ' ', maxUnavailable: '' })).toEqual({ error: 'whatif.err.surgeOrUnavailable' });
    // Left for the API server to judge, as kubectl would send it.
    expect(intOrPercent('lots')).toBe('lots');
  });
  it('scale wants a whole number of at least 0', () => {
    expect(build('scale', { replicas: '12' })).toEqual({ action: { type: 'scale', target: 'deployment/web', replicas: 12 } });
    expect(build('scale', { replicas: '-1' })).toEqual({ error: 'whatif.err.replicas' });
    expect(build('scale', { replicas: '1.5' })).toEqual({ error: 'whatif.err.replicas' });
  });
  it('rollout and timing forms pick the action by button', () => {
    expect(build('rollout', {}, web, 'restart')).toEqual({ action: { type: 'restart', target: 'deployment/web' } });
    expect(build('timing', { minReadySeconds: '10', progressDeadlineSeconds: '' }, web, 'setMinReadySeconds')).toEqual({ action: { type: 'setMinReadySeconds', target: 'deployment/web', minReadySeconds: 10 } });
    expect(build('timing', { minReadySeconds: '10', progressDeadlineSeconds: 'x' }, web, 'setProgressDeadline')).toEqual({ error: 'whatif.err.seconds', params: { field: 'progressDeadlineSeconds' } });
  });
  it('resources send only the keys given', () => {
    expect(build('setResources', { container: 'app', 'requests.cpu': '250m', 'limits.memory': '256Mi', 'requests.memory': '', 'limits.cpu': '' })).toEqual({
      action: { type: 'setResources', target: 'deployment/web', container: 'app', resources: { requests: { cpu: '250m' }, limits: { memory: '256Mi' } } },
    });
    expect(build('setResources', { container: 'app' })).toEqual({ error: 'whatif.err.resourcesEmpty' });
  });
  it('env lines set and remove variables as kubectl set env', () => {
    expect(parseEnv('A=1\n\nB-\nC=')).toEqual({ env: { A: '1', B: null, C: '' } });
    expect(parseEnv('A=1\n1X=2')).toEqual({ error: 'whatif.err.envLine', params: { line: 2 } });
    expect(build('setEnv', { container: 'log', env: 'LEVEL=debug' })).toEqual({ action: { type: 'setEnv', target: 'deployment/web', container: 'log', env: { LEVEL: 'debug' } } });
  });
  it('apply sends the manifest text; the loaded file minus its Scenario document starts it', () => {
    expect(build('apply', { manifest: '  ' }, undefined)).toEqual({ error: 'whatif.err.manifestEmpty' });
    const src = 'apiVersion: rolloutlab.dev/v1alpha1\nkind: Scenario\nspec: {}\n---\napiVersion: apps/v1\nkind: Deployment\n---\nkind: Service\n';
    expect(manifestOf(src)).toBe('apiVersion: apps/v1\nkind: Deployment\n---\nkind: Service\n');
  });
  it('describes an action in one line', () => {
    expect(runLabel({ type: 'setRollingUpdate', target: 'deployment/web', namespace: 'payments', maxSurge: '100%' })).toBe('maxSurge=100% · setRollingUpdate payments/deployment/web');
    expect(runLabel({ type: 'apply', manifest: 'x' })).toBe('(YAML) · apply');
  });
});

describe('pods and nodes', () => {
  it('delete a pod, fail or recover a node', () => {
    expect(build('cluster', { pod: 'web-1', node: 'node-2' }, undefined, 'deletePod')).toEqual({ action: { type: 'deletePod', name: 'web-1' } });
    expect(build('cluster', { pod: '', node: 'node-2' }, undefined, 'failNode')).toEqual({ action: { type: 'failNode', node: 'node-2' } });
    expect(build('cluster', { pod: '', node: '' }, undefined, 'recoverNode')).toEqual({ error: 'whatif.err.noNode' });
    expect(build('cluster', { pod: '', node: '' }, undefined, 'deletePod')).toEqual({ error: 'whatif.err.noPod' });
  });
});
