// GET /readyz's verdict within a bound (READINESS_TIMEOUT_MS). A load balancer asks every instance
// at once and drops those that do not answer within its own timeout: a database that answers
// slowly must make the instances say DOWN in time, not hang them all past that timeout. Each probe
// (the database's, Redis') runs at most once at a time: a call that finds one under way (a silent
// server, whose connection attempt lasts up to its own timeout) waits for it instead of starting
// another, so a database that does not answer never collects a pile of probes and connections.

export type Readiness = { ready: true } | { ready: false; message: string; error?: unknown };

export interface ReadinessProbe {
  /** resolves when the dependency can serve requests, rejects with why not */
  run(): Promise<void>;
  /** what /readyz says when run() rejected */
  failure(error: unknown): string;
  /** what /readyz says when run() has not settled within the bound */
  tooSlow(timeoutMs: number): string;
}

/** `run`, shared by its callers while a call of it is under way. */
function oneAtATime(run: () => Promise<void>): () => Promise<void> {
  let underWay: Promise<void> | null = null;
  return () =>
    (underWay ??= run().finally(() => {
      underWay = null;
    }));
}

/** The verdict of every probe, given within `timeoutMs`: ready when all resolved, else the first failure or the first probe still running. */
export function boundedReadiness(probes: ReadinessProbe[], timeoutMs: number): () => Promise<Readiness> {
  const shared = probes.map((probe) => ({ ...probe, run: oneAtATime(() => probe.run()) }));
  return () =>
    new Promise<Readiness>((resolve) => {
      const pending = new Set(shared);
      const timer = setTimeout(() => {
        const [late] = pending;
        resolve({ ready: false, message: late!.tooSlow(timeoutMs) });
      }, timeoutMs);
      const settle = (readiness: Readiness) => {
        clearTimeout(timer);
        resolve(readiness);
      };
      for (const probe of shared) {
        probe.run().then(
          () => {
            pending.delete(probe);
            if (pending.size === 0) settle({ ready: true });
          },
          (error: unknown) => settle({ ready: false, message: probe.failure(error), error }),
        );
      }
      if (shared.length === 0) settle({ ready: true });
    });
}
