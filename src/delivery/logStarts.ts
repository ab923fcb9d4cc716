// Where each plan log began, kept where it outlives the log. A log in memory or in Redis can be
// lost whole (a restart of the service, a Redis without persistence, an expiry), and an empty log
// looks like one that never had a message; this record tells them apart. With it, an epoch that
// must begin after such a loss begins past offset 1 (asyncapi.yaml x-offset: the client sees that
// its start is missing), and a replay of a lost log is not recovered. The service keeps it in its
// database (databaseLogStarts.ts); the in-memory one is for logs that live no longer than the
// process does (the mock, benchmarks, tests).

/**
 * What recording a writer's start says: `first`, nothing of it was in the log before (for a run:
 * its first message; outside a run: the log's first message), so an epoch it begins may start at
 * offset 1; `began`, it had begun before, so one that must begin now begins after lost messages;
 * `superseded`, a newer run has begun in the log (the writer is fenced).
 */
export type StartClaim = 'first' | 'began' | 'superseded';

export interface LogStarts {
  /** Records that `run` (0: messages outside any generation run) writes to `stream`, and says what was there before. */
  claim(stream: string, run: number): Promise<StartClaim>;
  /** Whether `stream` ever had a message (or a writer that claimed it). */
  began(stream: string): Promise<boolean>;
}

/** The newest run that began in a log (0: only messages outside a run), and what claiming `run` there says. */
export function claimAgainst(newest: number | undefined, run: number): StartClaim {
  if (newest === undefined) return 'first';
  if (run === 0) return 'began';
  return newest < run ? 'first' : newest === run ? 'began' : 'superseded';
}

export function createInMemoryLogStarts(): LogStarts {
  const newest = new Map<string, number>();
  return {
    claim(stream, run) {
      const before = newest.get(stream);
      const claim = claimAgainst(before, run);
      if (claim === 'first') newest.set(stream, Math.max(before ?? 0, run));
      return Promise.resolve(claim);
    },
    began: (stream) => Promise.resolve(newest.has(stream)),
  };
}
