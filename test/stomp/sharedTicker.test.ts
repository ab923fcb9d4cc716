// One timer visits every member of a shared ticker once per period (the STOMP connections' heart-beats,
// expiry and session checks), and it runs only while there are members.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sharedTicker } from '../../src/stomp/sharedTicker.js';

describe('sharedTicker', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('visits each member once per period, whenever it joined, on one timer', () => {
    const visits = new Map<string, number>();
    const ticker = sharedTicker<string>(1000, (m) => visits.set(m, (visits.get(m) ?? 0) + 1));
    for (let i = 0; i < 5; i++) ticker.add(`early-${i}`);
    vi.advanceTimersByTime(350);
    for (let i = 0; i < 5; i++) ticker.add(`late-${i}`);
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(650);
    // a period after the first five joined: each once; the later five are not due yet
    expect([...visits.keys()].sort()).toEqual(['early-0', 'early-1', 'early-2', 'early-3', 'early-4']);
    vi.advanceTimersByTime(2000);
    expect([...visits.values()]).toEqual([3, 3, 3, 3, 3, 2, 2, 2, 2, 2]);
  });

  it('spreads the members over the period rather than visiting them all at once', () => {
    const seenAt: number[] = [];
    const ticker = sharedTicker<number>(1000, () => seenAt.push(performance.now()), 10);
    for (let i = 0; i < 10; i++) {
      ticker.add(i);
      vi.advanceTimersByTime(100);
    }
    seenAt.length = 0;
    vi.advanceTimersByTime(1000);
    expect(new Set(seenAt).size).toBe(10);
  });

  it('does not visit a member deleted, and stops its timer when the last one leaves', () => {
    const visited: string[] = [];
    const ticker = sharedTicker<string>(100, (m) => visited.push(m));
    ticker.add('a');
    ticker.add('b');
    ticker.delete('a');
    vi.advanceTimersByTime(250);
    expect(new Set(visited)).toEqual(new Set(['b']));
    ticker.delete('b');
    expect(ticker.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a member may leave during its own visit', () => {
    const ticker = sharedTicker<string>(100, (m) => ticker.delete(m));
    ticker.add('once');
    vi.advanceTimersByTime(100);
    expect(ticker.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
