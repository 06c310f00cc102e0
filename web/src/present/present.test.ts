import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TraceRecord, View } from '../types';
import { addRecords, edgeNoteAt, nearestNoteStep, noteAt, type RecordSteps, sameStepNote, shownNote, stepsOf } from './annotations';
import { questionFor } from './predict';
import { inputKeeps, readState, typingTarget } from './presenter';

const { view } = JSON.parse(readFileSync(new URL('../testdata/step95.json', import.meta.url), 'utf8')) as { view: View };
const rec = (type: string, data: unknown): TraceRecord => ({ seq: 1, step: 1, atNs: 0, source: 's', kind: 'decision', type, text: '', data });

describe('annotations', () => {
  it('resolves step and record positions, the nth record counting from 1', () => {
    const seen: RecordSteps = new Map();
    addRecords(seen, [{ type: 'NewRSMath', step: 2 }, { type: 'ManageDecision', step: 5 }, { type: 'NewRSMath', step: 95 }]);
    const anns = [{ at: { step: 99 } }, { at: { record: 'NewRSMath', nth: 2 } }, { at: { record: 'NewRSMath' } }, { at: { record: 'DeletionRanking', nth: 1 } }];
    expect(stepsOf(anns, seen)).toEqual([99, 95, 2, null]);
  });
  it('shows the last note at or before the step', () => {
    expect(noteAt([99, 95, 2, null], 1)).toBe(-1);
    expect(noteAt([99, 95, 2, null], 95)).toBe(1);
    expect(noteAt([99, 95, 2, null], 200)).toBe(0);
  });
  it('moves through several notes of one step one at a time (adoption: ClaimPods, then manageReplicas, both at step 10)', () => {
    const steps = [10, 10, 40];
    expect(noteAt(steps, 9)).toBe(-1);
    expect(noteAt(steps, 10)).toBe(0); // arriving at step 10: its first note
    expect(sameStepNote(steps, 0, 1)).toBe(1); // PageDown: the second, same step
    expect(sameStepNote(steps, 1, 1)).toBe(-1); // then on to the next step
    expect(sameStepNote(steps, 1, -1)).toBe(0);
    expect(sameStepNote(steps, 0, -1)).toBe(-1);
    expect(noteAt(steps, 11)).toBe(1); // past step 10: the last one read stays
    expect(edgeNoteAt(steps, 10, 1)).toBe(0);
    expect(edgeNoteAt(steps, 10, -1)).toBe(1); // PageUp back to step 10: its last note first
    expect(edgeNoteAt(steps, 12, 1)).toBe(-1);
    expect(sameStepNote([10, null], 1, 1)).toBe(-1);
  });
  it('reads a saved presentation, rejecting junk', () => {
    expect(readState('{"id":"adoption","step":12}')).toEqual({ id: 'adoption', step: 12 });
    expect(readState('{"id":"","step":4,"source":"kind: Scenario"}')).toEqual({ id: '', step: 4, source: 'kind: Scenario' });
    expect(readState('{"id":3}')).toBeNull();
    expect(readState('{')).toBeNull();
  });
});

describe('predict', () => {
  it('asks for the new ReplicaSet size at step 95 of the rolling update', () => {
    const q = questionFor(view.records ?? []);
    expect(q?.type).toBe('NewRSMath');
    expect(q?.answer).toBe(3);
    expect(q?.params.now).toBe(0);
  });
  it('asks how many old replicas go, and how many pods a ReplicaSet creates or deletes', () => {
    expect(questionFor([rec('OldScaleDownMath', { totalScaledDown: 2 })])?.answer).toBe(2);
    expect(questionFor([rec('OldScaleDownMath', { stopped: 'no old pods' })])).toBeNull();
    expect(questionFor([rec('ManageDecision', { key: 'default/a', action: 'create', count: 3 })])?.answer).toBe(3);
    expect(questionFor([rec('ManageDecision', { key: 'default/a', action: 'delete', count: 2 })])?.answer).toBe(-2);
    expect(questionFor([rec('ManageDecision', { key: 'default/a', action: 'skipped' })])).toBeNull();
    expect(questionFor([rec('QueueOp', {})])).toBeNull();
  });
});

describe('presenter keys', () => {
  it('leave text fields, selects and the editor alone, not the slider or buttons', () => {
    // No DOM in these tests: what typingTarget reads.
    const el = (tagName: string, type = '', isContentEditable = false) => ({ tagName, type, isContentEditable }) as unknown as HTMLElement;
    const input = (type: string) => el('INPUT', type);
    expect(typingTarget(input('text'))).toBe(true);
    expect(typingTarget(input('number'))).toBe(true);
    expect(typingTarget(el('TEXTAREA'))).toBe(true);
    expect(typingTarget(el('SELECT'))).toBe(true);
    expect(typingTarget(el('DIV', '', true))).toBe(true);
    expect(typingTarget(input('range'))).toBe(false);
    expect(typingTarget(input('checkbox'))).toBe(false);
    expect(typingTarget(el('BUTTON'))).toBe(false);
    expect(typingTarget(null)).toBe(false);
  });
  it('a focused slider keeps its arrows, Home and End, but not Space or Escape', () => {
    const range = { type: 'range' };
    for (const k of ['ArrowLeft', 'ArrowRight', 'Home', 'End']) expect(inputKeeps(range, k)).toBe(true);
    for (const k of [' ', 'Escape', 'PageDown', 'PageUp']) expect(inputKeeps(range, k)).toBe(false);
    expect(inputKeeps({ type: 'checkbox' }, ' ')).toBe(true);
    expect(inputKeeps({ type: 'checkbox' }, 'Escape')).toBe(false);
  });
});

describe('shownNote and nearestNoteStep', () => {
  it('keeps a pinned note only while its step is shown', () => {
    expect(shownNote([10, 10, 40], 10, { step: 10, index: 1 })).toBe(1);
    expect(shownNote([10, 10, 40], 10, null)).toBe(0);
    expect(shownNote([10, 10, 40], 12, { step: 10, index: 0 })).toBe(1);
    // A pin whose note is no longer at that step (another scenario) is ignored.
    expect(shownNote([5, 10, 40], 10, { step: 10, index: 0 })).toBe(1);
  });
  it('stepsOf drops a {step} note past the run\'s end once it is known', () => {
    expect(stepsOf([{ at: { step: 3 } }, { at: { step: 500 } }], new Map(), 39)).toEqual([3, null]);
    expect(stepsOf([{ at: { step: 3 } }, { at: { step: 500 } }], new Map())).toEqual([3, 500]);
  });
  it('finds the nearest placed note either way', () => {
    expect(nearestNoteStep([10, null, 40], 10, 1)).toBe(40);
    expect(nearestNoteStep([10, null, 40], 40, -1)).toBe(10);
    expect(nearestNoteStep([10, null, 40], 40, 1)).toBeNull();
    expect(nearestNoteStep([null, null], 0, 1)).toBeNull();
  });
});
