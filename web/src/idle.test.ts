import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterIdle } from './idle';

describe('afterIdle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once the wait passes with no call, and not while calls keep coming', () => {
    const run = vi.fn();
    const idle = afterIdle(run, 400);
    idle.done();
    vi.advanceTimersByTime(399);
    idle.busy();
    vi.advanceTimersByTime(1000);
    expect(run).not.toHaveBeenCalled(); // a call came before the wait ended
    idle.done();
    vi.advanceTimersByTime(300);
    idle.busy();
    idle.done();
    vi.advanceTimersByTime(300);
    expect(run).not.toHaveBeenCalled(); // the wait starts again after each call
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1); // once per pause, not periodically
  });
});
