// How often each fault id was used, so that "n times, then as usual" works across requests and
// reconnects: a client that retries or reconnects sends the same header again, and only the first
// `times` carriers of its id get the fault. Ids are the client's own, so parallel clients with ids
// of their own do not count each other's. Kept in memory, the oldest forgotten past a bound.

export interface FaultUses {
  /** Whether this carrier of the header gets its fault: always without an id, else the first `times` (default 1) of the id. */
  take(id: string | undefined, times: number | undefined): boolean;
}

const MAX_IDS = 10_000;

export function createFaultUses(): FaultUses {
  const uses = new Map<string, number>();
  return {
    take(id, times = 1) {
      if (id === undefined) return true;
      const used = (uses.get(id) ?? 0) + 1;
      uses.delete(id);
      uses.set(id, used);
      if (uses.size > MAX_IDS) uses.delete(uses.keys().next().value!);
      return used <= times;
    },
  };
}
