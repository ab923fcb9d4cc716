// One timer for many members instead of one timer each (a timer with its callback costs a few
// hundred bytes, and 10,000 idle STOMP connections had four each). The members sit on a wheel of
// `slots` sets, one set visited per step of periodMs / slots, so every member is visited once per
// period (the first time a period after it joined, less at most one step) and the visits are spread
// over the period instead of bunched. The timer runs only while there are members.

export interface SharedTicker<T> {
  /** a member is added once (until deleted) */
  add(member: T): void;
  delete(member: T): void;
  readonly size: number;
}

/** `slots`: default 10 for periods of a second or more; shorter periods (tests, eager clients) need no spreading. */
export function sharedTicker<T>(periodMs: number, visit: (member: T) => void, slots = periodMs >= 1000 ? 10 : 1): SharedTicker<T> {
  const wheel = Array.from({ length: slots }, () => new Set<T>());
  const stepMs = Math.max(1, Math.floor(periodMs / slots));
  // the slot the next step visits
  let cursor = 0;
  let size = 0;
  let timer: NodeJS.Timeout | null = null;
  let startedAt = 0;
  let stepsTaken = 0;

  function step(): void {
    const slot = wheel[cursor]!;
    cursor = (cursor + 1) % slots;
    // A visit may delete its member (or others): deleting from a Set while iterating it is safe.
    for (const member of slot) visit(member);
  }

  // A busy event loop fires the interval late and drops the missed ticks: take the steps that are
  // due by the clock, so the period holds (after a stall longer than a period, everyone once).
  function catchUp(): void {
    const due = Math.floor((performance.now() - startedAt) / stepMs);
    const steps = Math.min(due - stepsTaken, slots);
    stepsTaken = due;
    for (let i = 0; i < steps; i++) step();
  }

  return {
    add(member) {
      // The slot visited last: its next visit is a whole period away.
      wheel[(cursor + slots - 1) % slots]!.add(member);
      size++;
      if (!timer) {
        startedAt = performance.now();
        stepsTaken = 0;
        timer = setInterval(catchUp, stepMs);
      }
    },
    delete(member) {
      for (const slot of wheel) {
        if (!slot.delete(member)) continue;
        size--;
        if (size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
        return;
      }
    },
    get size() {
      return size;
    },
  };
}
