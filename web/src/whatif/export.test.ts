import { describe, expect, it } from 'vitest';
import { baseName, timelineText } from './export';

describe('export', () => {
  it('writes the timeline one step per line', () => {
    expect(timelineText([
      { step: 1, kind: 'action', component: 'timeline', key: 'apply deployment/web', atNs: 0, firstSeq: 1, lastSeq: 3 },
      { step: 2, kind: 'sync', component: 'deployment-controller', key: 'default/web', atNs: 1.5e9, firstSeq: 4, lastSeq: 9 },
    ], 'web')).toBe('# rolloutlab timeline: web, 2 steps\n+0.000s step 1 action timeline apply deployment/web\n+1.500s step 2 sync deployment-controller default/web\n');
  });
  it('makes file names from scenario names', () => {
    expect(baseName('max surge/1.yaml')).toBe('max-surge-1');
    expect(baseName('///')).toBe('scenario');
  });
});
