import { describe, expect, it } from 'vitest';
import { commandFor, type KeyInput, keyLabel, SHORTCUTS } from './keys';

const press = (key: string, over: Partial<KeyInput> = {}): KeyInput => ({ key, ctrlKey: false, metaKey: false, altKey: false, targetTag: 'BODY', targetEditable: false, ...over });

describe('commandFor', () => {
  it.each([
    ['ArrowRight', 'stepEvent'],
    ['n', 'stepEvent'],
    ['N', 'stepEvent'],
    ['s', 'stepSync'],
    ['e', 'settle'],
    ['ArrowLeft', 'back'],
    [' ', 'togglePlay'],
    ['r', 'reset'],
    ['?', 'help'],
    ['Home', 'first'],
    ['End', 'last'],
    ['Escape', 'closeOverlay'],
  ])('%j → %s', (key, cmd) => {
    expect(commandFor(press(key))).toBe(cmd);
  });
  it('leaves modified keys to the browser', () => {
    expect(commandFor(press('r', { ctrlKey: true }))).toBeNull();
    expect(commandFor(press('n', { metaKey: true }))).toBeNull();
    expect(commandFor(press('s', { altKey: true }))).toBeNull();
  });
  it('never steals typing, except Escape', () => {
    expect(commandFor(press('n', { targetTag: 'INPUT' }))).toBeNull();
    expect(commandFor(press(' ', { targetTag: 'TEXTAREA' }))).toBeNull();
    expect(commandFor(press('s', { targetTag: 'DIV', targetEditable: true }))).toBeNull();
    expect(commandFor(press('Escape', { targetEditable: true }))).toBe('closeOverlay');
  });
  it('keeps Space native on buttons', () => {
    expect(commandFor(press(' ', { targetTag: 'BUTTON' }))).toBeNull();
    expect(commandFor(press('n', { targetTag: 'BUTTON' }))).toBe('stepEvent');
  });
  it('ignores unmapped keys', () => {
    expect(commandFor(press('x'))).toBeNull();
  });
  it('maps every documented key back to its command', () => {
    for (const s of SHORTCUTS) for (const k of s.keys) expect(commandFor(press(k))).toBe(s.command);
  });
});

describe('keyLabel', () => {
  it('names special keys', () => {
    expect(keyLabel(' ')).toBe('Space');
    expect(keyLabel('ArrowRight')).toBe('→');
    expect(keyLabel('s')).toBe('s');
  });
});

it('PressQueue runs quick presses in turn, drops held-key repeats and those past max, and stops when told', async () => {
  const { PressQueue } = await import('./keys');
  const done: string[] = [];
  let release!: () => void;
  const slow = () => new Promise<void>((r) => (release = r)).then(() => void done.push('slow'));
  const quick = (name: string) => async () => void done.push(name);
  let on = true;
  const q = new PressQueue(2, () => on);
  const first = q.push(slow);
  void q.push(quick('a'));
  void q.push(quick('held'), true); // a repeat while busy: dropped
  void q.push(quick('b'));
  void q.push(quick('c')); // past max: dropped
  release();
  await first;
  expect(done).toEqual(['slow', 'a', 'b']);
  // Told to stop: what waits is not run.
  const second = q.push(slow);
  void q.push(quick('d'));
  on = false;
  release();
  await second;
  expect(done).toEqual(['slow', 'a', 'b', 'slow']);
});
