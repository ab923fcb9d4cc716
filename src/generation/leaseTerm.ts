// How long a run still holds its lease by its own clock: every renewal that succeeded (the claim,
// a heartbeat, a fenced write: each sets gen_lease_until to the instant it was sent plus the lease
// length) moves the end on. The database's fence has the last word; this is what the run knows
// without asking it, e.g. while the database does not answer.
export interface LeaseTerm {
  /** a renewal sent at `sentAtMs` succeeded */
  renewed(sentAtMs: number): void;
  /** when the lease ends unless renewed again */
  endsAtMs(): number;
}

export function leaseTerm(claimedAtMs: number, leaseMs: number): LeaseTerm {
  let lastRenewalMs = claimedAtMs;
  return {
    renewed(sentAtMs) {
      lastRenewalMs = Math.max(lastRenewalMs, sentAtMs);
    },
    endsAtMs: () => lastRenewalMs + leaseMs,
  };
}
